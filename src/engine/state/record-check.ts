// A state record checked on read as strictly as a manifest: the types moor relies on, and an
// address that is the record's own Kind/name. Hand edits and other writers are caught here.
import { jsonText } from '../../core/foreign-text.js';
import { isObject } from '../../core/json.js';

/** Kind/name as manifests allow them (metadata.name: letters, digits, _ . -). */
const ADDRESS = /^[A-Za-z][A-Za-z0-9]*\/[A-Za-z0-9_.-]{1,128}$/;
const PENDING_ACTIONS: ReadonlySet<unknown> = new Set(['create', 'update', 'replace']);

/** What is wrong with one record (naming the address and the field), or undefined when it is sound. */
export function recordProblem(address: string, record: unknown): string | undefined {
  const at = `record ${jsonText(address)}`;
  if (!isObject(record) || typeof record.kind !== 'string' || typeof record.name !== 'string' || !isObject(record.lastApplied)) {
    return `${at} lacks kind, name or lastApplied`;
  }
  if (!ADDRESS.test(address)) return `${at}: the address is not Kind/name (letters, digits, _ . - in the name)`;
  if (address.slice(0, address.indexOf('/')) !== record.kind) return `${at}: kind ${jsonText(record.kind)} does not match its address`;
  const wrong = fieldProblem(record);
  return wrong ? `${at}: ${wrong}` : undefined;
}

/** The first optional field whose type is not the one moor writes. */
function fieldProblem(r: Record<string, unknown>): string | undefined {
  if (r.id !== undefined && typeof r.id !== 'string') return `"id" must be a string, not ${typeName(r.id)}`;
  if (r.outputs !== undefined && !isObject(r.outputs)) return `"outputs" must be an object, not ${typeName(r.outputs)}`;
  if (r.protect !== undefined && typeof r.protect !== 'boolean') return `"protect" must be true or false, not ${typeName(r.protect)}`;
  if (r.dependsOn !== undefined && !(Array.isArray(r.dependsOn) && r.dependsOn.every((a) => typeof a === 'string')))
    return '"dependsOn" must be a list of addresses';
  if (r.pending !== undefined && !(isObject(r.pending) && PENDING_ACTIONS.has(r.pending.action) && typeof r.pending.since === 'string')) {
    return '"pending" must be {action: create|update|replace, since}';
  }
  if (r.runs !== undefined && !(Array.isArray(r.runs) && r.runs.every(isObject))) return '"runs" must be a list of objects';
  if (r.updatedAt !== undefined && typeof r.updatedAt !== 'string') return `"updatedAt" must be a string, not ${typeName(r.updatedAt)}`;
  return undefined;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${jsonText(v)}`;
}
