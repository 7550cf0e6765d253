// Visits every string value of a JSON document with its path (keys are not visited).
import type { JsonPath, JsonValue } from '../json.js';

export function forEachString(value: JsonValue | undefined, visit: (path: JsonPath, text: string) => void, path: Array<string | number> = []): void {
  if (typeof value === 'string') {
    visit(path, value);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => forEachString(item, visit, [...path, i]));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) forEachString(item, visit, [...path, key]);
  }
}
