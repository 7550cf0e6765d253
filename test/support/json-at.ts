// Typed access into a test's JSON documents (specs, answers as a service gives them), for editing them in place.
import { getAt, isObject, type JsonObject, type JsonPath, type JsonValue } from '../../src/core/json.js';

const shown = (path: JsonPath): string => '/' + path.join('/');

/** The object at `path`; throws when there is none there, so a test built on a wrong shape fails at once. */
export function objectAt(doc: JsonValue, ...path: JsonPath): JsonObject {
  const found = getAt(doc, path);
  if (!isObject(found)) throw new Error(`the test document has no object at ${shown(path)}`);
  return found;
}

/** The array at `path`; throws when there is none there. */
export function arrayAt(doc: JsonValue, ...path: JsonPath): JsonValue[] {
  const found = getAt(doc, path);
  if (!Array.isArray(found)) throw new Error(`the test document has no array at ${shown(path)}`);
  return found as JsonValue[];
}

/** The objects of the array at `path`, none when the path is absent. */
export function itemsAt(doc: JsonValue, ...path: JsonPath): JsonObject[] {
  const found = getAt(doc, path);
  return Array.isArray(found) ? found.filter(isObject) : [];
}
