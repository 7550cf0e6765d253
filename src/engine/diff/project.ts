// The part of a live resource that a manifest manages: what `moor import` records as last applied,
// so fields the service fills in (defaults, names) are not mistaken for fields moor set.
import { isObject, type JsonObject, type JsonValue } from '../json.js';

/** `live` restricted to the keys `shape` has, at every level of nested objects. */
export function projectOnto(live: JsonObject, shape: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, wanted] of Object.entries(shape)) {
    const value = live[key];
    if (value === undefined) continue;
    out[key] = isObject(value) && isObject(wanted) ? projectOnto(value, wanted) : (value as JsonValue);
  }
  return out;
}
