// Checks that a parsed document is plain JSON: YAML tags can produce binary data, dates, sets
// and maps, and `.inf`/`.nan` numbers that no service request can carry.
import type { JsonPath } from '../../core/json.js';

export interface PlainJsonProblem {
  readonly path: JsonPath;
  readonly message: string;
}

/** The first value that is not plain JSON, or undefined. Iterative: depth is bounded elsewhere, not here. */
export function findNonJson(root: unknown): PlainJsonProblem | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: (string | number)[] };
    if (value === null || typeof value === 'string' || typeof value === 'boolean') continue;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { path, message: 'not a finite number (.inf and .nan are not allowed)' };
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, path: [...path, i] }));
    } else if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      for (const [key, item] of Object.entries(value)) stack.push({ value: item, path: [...path, key] });
    } else {
      return { path, message: `not a plain value (a YAML tag made it ${describe(value)}); use a string, number, boolean, list or mapping` };
    }
  }
  return undefined;
}

function describe(value: unknown): string {
  if (value instanceof Uint8Array) return 'binary data';
  if (value instanceof Date) return 'a date';
  if (value instanceof Map || value instanceof Set) return 'a map or set with non-string keys';
  return `a ${typeof value}`;
}
