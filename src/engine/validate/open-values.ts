// Open value lists: where a service's list of values is not closed (its seed says the complete
// list is not shown, or its definition is an extensible enum), a value moor does not know is a
// warning naming the known ones, never an error: moor must not refuse what the service accepts.
import { isObject, valueText, type JsonObject, type JsonPath, type JsonValue } from '../../core/json.js';
import { fieldPath } from '../../core/field-path.js';
import type { SpecProblem } from './spec-problem.js';

/** The schema keyword (see core/schema-parts.ts openEnumOf) listing the values known so far. */
export const KNOWN_VALUES = 'knownValues';

/** Warnings for values of open lists that match no known value (compared ignoring case, as the services read them). */
export function openValueWarnings(schema: JsonObject, spec: JsonValue, root: JsonPath = ['spec']): SpecProblem[] {
  const out: SpecProblem[] = [];
  walk(schema, spec, [...root], out);
  return out;
}

function walk(schema: JsonObject, value: JsonValue | undefined, path: (string | number)[], out: SpecProblem[]): void {
  const known = schema[KNOWN_VALUES];
  if (Array.isArray(known) && typeof value === 'string') {
    if (!value.includes('${') && !known.some((k) => typeof k === 'string' && k.toLowerCase() === value.toLowerCase())) {
      out.push({
        path: [...path],
        at: 'value',
        severity: 'warning',
        code: 'schema.openValue',
        message: `${fieldPath(path)}: ${JSON.stringify(value)} is not one of the known values (${known.map(valueText).join(', ')}); it is sent as written and the service decides`,
      });
    }
    return;
  }
  if (Array.isArray(value)) {
    if (isObject(schema.items)) for (let i = 0; i < value.length; i++) step(schema.items, value[i], path, i, out);
  } else if (isObject(value)) {
    const props = isObject(schema.properties) ? schema.properties : {};
    for (const key of Object.keys(value)) {
      const sub = props[key] ?? schema.additionalProperties;
      if (isObject(sub)) step(sub, value[key], path, key, out);
    }
  }
}

function step(schema: JsonObject, value: JsonValue | undefined, path: (string | number)[], segment: string | number, out: SpecProblem[]): void {
  path.push(segment);
  walk(schema, value, path, out);
  path.pop();
}
