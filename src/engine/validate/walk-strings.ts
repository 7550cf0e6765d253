// Visits every string value of a JSON document with its path (keys are not visited).
import type { JsonPath, JsonValue } from '../../core/json.js';

/**
 * Calls `visit` for each string. The path passed is one shared, changing array (walking
 * 10,000 manifests must not copy a path per value): copy it to keep it.
 */
export function forEachString(value: JsonValue | undefined, visit: (path: JsonPath, text: string) => void): void {
  walk(value, visit, []);
}

function walk(value: JsonValue | undefined, visit: (path: JsonPath, text: string) => void, path: (string | number)[]): void {
  if (typeof value === 'string') {
    visit(path, value);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      walk(value[i], visit, path);
      path.pop();
    }
  } else if (value !== null && typeof value === 'object') {
    for (const key in value) {
      path.push(key);
      walk(value[key], visit, path);
      path.pop();
    }
  }
}
