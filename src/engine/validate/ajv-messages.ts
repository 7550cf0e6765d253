// Turns ajv's errors into messages that name the field and what is allowed, at the right place.
import type { ErrorObject } from 'ajv';
import { fromPointer, getAt, isObject, type JsonObject, type JsonPath } from '../../core/json.js';
import { hasPlaceholder } from '../../core/references.js';
import { fieldPath } from '../../core/field-path.js';
import type { SpecProblem } from './spec-problem.js';

const FORMATS: Readonly<Record<string, string>> = {
  uuid: 'a UUID such as 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11',
  uri: 'an absolute URI',
  'date-time': 'an RFC 3339 date-time',
};

/** Keywords about an object's members; the rest judge one value, which a placeholder may stand for. */
const OBJECT_KEYWORDS = new Set(['additionalProperties', 'required']);

/**
 * Problems of a spec from ajv's errors (ajv run with verbose, so parentSchema is present).
 * Values holding `${...}` are not judged: they are known only at plan time.
 */
export function problemsFromAjv(errors: readonly ErrorObject[], spec: JsonObject, root: JsonPath): SpecProblem[] {
  const out: SpecProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const path = fromPointer(e.instancePath);
    if (!OBJECT_KEYWORDS.has(e.keyword) && e.propertyName === undefined) {
      const value = getAt(spec, path);
      if (typeof value === 'string' && hasPlaceholder(value)) continue;
    }
    const p = describe(e, [...root, ...path]);
    if (!p) continue;
    const id = `${p.path.join('\u0000')}|${p.at}|${p.message}`;
    if (!seen.has(id)) {
      seen.add(id);
      out.push(p);
    }
  }
  return out;
}

function describe(e: ErrorObject, path: JsonPath): SpecProblem | undefined {
  const schema = isObject(e.parentSchema) ? e.parentSchema : {};
  const params = e.params as Record<string, unknown>;
  const problem = (at: JsonPath, where: 'key' | 'value', message: string): SpecProblem => ({
    path: at,
    at: where,
    message,
    severity: 'error',
    code: `schema.${e.keyword}`,
  });
  if (e.propertyName !== undefined) {
    if (e.keyword === 'propertyNames') return undefined;
    return problem(
      [...path, e.propertyName],
      'key',
      `${fieldPath(path)}: key ${JSON.stringify(e.propertyName)} ${valueRule(e, schema, params) ?? e.message ?? 'is not allowed'}`,
    );
  }
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      return problem([...path, key], 'key', `${fieldPath([...path, key])}: unknown field${suggest(key, schema)}`);
    }
    case 'required':
      return problem(path, 'key', `${fieldPath(path)}: missing required field ${String(params.missingProperty)}`);
    case 'propertyNames':
    case 'if':
      return undefined;
    default:
      return problem(path, 'value', `${fieldPath(path)}: ${valueRule(e, schema, params) ?? e.message ?? 'is not valid'}`);
  }
}

function valueRule(e: ErrorObject, schema: JsonObject, params: Record<string, unknown>): string | undefined {
  switch (e.keyword) {
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'type':
      return `must be ${String(params.type).split(',').map(article).join(' or ')}`;
    case 'format':
      return `must be ${FORMATS[String(params.format)] ?? `in the format ${String(params.format)}`}`;
    case 'pattern':
      return typeof schema.patternErrorMessage === 'string' ? schema.patternErrorMessage : `must match ${String(params.pattern)}`;
    case 'minLength':
    case 'maxLength':
      return lengthRule(schema);
    case 'minItems':
      return `must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${String(params.limit)} items`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(params.limit)}`;
    default:
      return undefined;
  }
}

function lengthRule(schema: JsonObject): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : undefined;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const extra = typeof schema.patternErrorMessage === 'string' && schema.pattern ? ` (${schema.patternErrorMessage})` : '';
  if (min !== undefined && max !== undefined) return `must be ${min} to ${max} characters long${extra}`;
  if (min === 1) return 'must not be empty';
  if (min !== undefined) return `must be at least ${min} characters long`;
  return `must be at most ${max} characters long`;
}

function article(type: string): string {
  if (type === 'integer') return 'an integer';
  if (type === 'object') return 'a mapping';
  if (type === 'array') return 'a list';
  if (type === 'boolean') return 'true or false';
  return `a ${type}`;
}

/** "did you mean" for a misspelt key, else the allowed keys when they are few. */
export function suggest(key: string, schema: JsonObject): string {
  const allowed = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  if (allowed.length === 0) return ' (no fields allowed here)';
  const close = allowed
    .map((a) => ({ a, d: distance(key.toLowerCase(), a.toLowerCase()) }))
    .filter((c) => c.d <= Math.max(2, Math.floor(key.length / 4)))
    .sort((x, y) => x.d - y.d)
    .at(0);
  if (close) return `; did you mean ${close.a}?`;
  return allowed.length <= 12 ? ` (allowed: ${allowed.join(', ')})` : '';
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}
