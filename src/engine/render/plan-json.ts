// Plans as one machine-readable JSON document (format moor-plan/1), with secrets masked defensively.
import { jsonText } from '../../core/foreign-text.js';
import { SENSITIVE_MASK } from '../secrets.js';
import { fromPointer, isObject } from '../../core/json.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import type { FieldChange, PatchOp, Plan, PlannedChange } from '../plan/types.js';

/** The `--output json` document; stable keys, null where a diagnostic has no location, address or code. */
export function renderPlanJson(plan: Plan): string {
  return jsonText(planJson(plan), 2) + '\n';
}

/** The same document as a value, for callers that add to it (plan-document.ts) rather than parse the text back. */
export function planJson(plan: Plan): JsonObject {
  return {
    format: 'moor-plan/1',
    serial: plan.serial,
    changes: plan.changes.map(changeJson),
    summary: { ...plan.summary },
    diagnostics: plan.diagnostics.map(diagnosticJson),
  };
}

function changeJson(c: PlannedChange): JsonObject {
  const sensitive = c.fields.filter((f) => f.sensitive).map((f) => fromPointer(f.pointer ?? f.path));
  return {
    address: c.address,
    kind: c.kind,
    action: c.action,
    patch: c.patch.map((op) => patchJson(op, sensitive)),
    drift: c.drift,
    destructive: c.destructive,
    ...(c.reason !== undefined ? { reason: c.reason } : {}),
    ...(c.reasonCode !== undefined ? { reasonCode: c.reasonCode } : {}),
    ...(c.heldBackBy !== undefined ? { heldBackBy: c.heldBackBy } : {}),
    ...(c.movedFrom !== undefined ? { movedFrom: c.movedFrom } : {}),
    ...(c.untracked ? { untracked: true } : {}),
    ...(c.ignored ? { ignored: c.ignored } : {}),
    ...(c.adoptedSecrets ? { adoptedSecrets: c.adoptedSecrets } : {}),
    fields: c.fields.map(fieldJson),
    ...(c.after !== undefined ? { after: c.after } : {}),
    ...(c.resent && c.resent.length > 0 ? { resent: [...c.resent] } : {}),
    ...(c.check ? { check: { passed: c.check.passed, severity: c.check.severity, message: c.check.message } } : {}),
  };
}

function fieldJson(f: FieldChange): JsonObject {
  const mask = (v: JsonValue | undefined) => (f.sensitive ? SENSITIVE_MASK : v);
  return {
    path: f.path,
    ...(f.pointer !== undefined ? { pointer: f.pointer } : {}),
    op: f.op,
    ...(f.before !== undefined ? { before: mask(f.before) as JsonValue } : {}),
    ...(f.unknown ? { unknown: true } : f.after !== undefined ? { after: mask(f.after) as JsonValue } : {}),
    cause: f.cause,
    sensitive: f.sensitive,
    forcesReplace: f.forcesReplace,
  };
}

/**
 * A patch value at or under a sensitive field is masked, and one above it has the sensitive
 * parts masked (a create's whole document), whatever the planner put there.
 */
function patchJson(op: PatchOp, sensitive: readonly string[][]): JsonObject {
  const path = fromPointer(op.path);
  const out: JsonObject = { op: op.op, path: op.path };
  if (op.unknown) out.unknown = true;
  else if (op.value !== undefined) {
    const within = sensitive.some((s) => startsWith(path, s));
    const below = sensitive.filter((s) => s.length > path.length && startsWith(s, path)).map((s) => s.slice(path.length));
    out.value = within ? SENSITIVE_MASK : below.reduce<JsonValue>((v, rel) => maskAt(v, rel), op.value);
  }
  return out;
}

/** `value` with the part at a relative path masked (a copy; a path that is not there masks the whole). */
function maskAt(value: JsonValue, rel: readonly string[]): JsonValue {
  if (rel.length === 0) return SENSITIVE_MASK;
  const [head, ...rest] = rel;
  if (Array.isArray(value) && /^\d+$/.test(head) && Number(head) < value.length) {
    return value.map((v, i) => (i === Number(head) ? maskAt(v, rest) : v));
  }
  if (isObject(value) && head in value) return { ...value, [head]: maskAt(value[head], rest) };
  return SENSITIVE_MASK;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((seg, i) => seg === path[i]);
}

function diagnosticJson(d: Diagnostic): JsonObject {
  return {
    file: d.location?.file ?? null,
    line: d.location?.line ?? null,
    col: d.location?.col ?? null,
    severity: d.severity,
    message: d.message,
    address: d.address ?? null,
    code: d.code ?? null,
    ...(d.policy !== undefined ? { policy: d.policy } : {}),
  };
}
