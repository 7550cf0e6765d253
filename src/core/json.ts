// Plain JSON values and JSON-pointer helpers shared by every step.
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** An object read from outside (a file, a schema, an answer): any field may be missing. */
export type JsonFields = Readonly<Partial<Record<string, JsonValue>>>;

/** A path into a JSON document: object keys and array indexes, from the root. */
export type JsonPath = readonly (string | number)[];

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value`'s fields, any of which may be missing, when it is an object read from outside; else undefined. */
export function fieldsOf(value: unknown): JsonFields | undefined {
  return isObject(value) ? value : undefined;
}

/**
 * The value under `key`, or undefined. The index signature claims every key holds a value; a key
 * the object lacks gives undefined, and so does a field left undefined in an object built in code.
 */
export function fieldOf(obj: JsonObject, key: string): JsonValue | undefined {
  return obj[key];
}

/**
 * A value as text, for matching and naming elements by a key field: a scalar as String() gives it,
 * an object or a list as its JSON (String() gives every object the same '[object Object]').
 */
export function valueText(value: JsonValue | undefined): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** RFC 6901 pointer of a path: ['a', 0, 'b/c'] -> '/a/0/b~1c'. */
export function toPointer(path: JsonPath): string {
  return path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** Path of an RFC 6901 pointer: '/a/0' -> ['a', '0'] (indexes stay strings). */
export function fromPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at a path, or undefined. */
export function getAt(doc: unknown, path: JsonPath): unknown {
  let cur: unknown = doc;
  for (const key of path) {
    if (Array.isArray(cur)) cur = cur[Number(key)];
    else if (isObject(cur)) cur = cur[String(key)];
    else return undefined;
  }
  return cur;
}

/**
 * Whether a concrete path matches a pattern of the same length, where a pattern segment
 * `*` matches any key or index: ['properties','containers','*','name'].
 */
export function matchesPattern(path: JsonPath, pattern: readonly string[]): boolean {
  if (path.length !== pattern.length) return false;
  return pattern.every((seg, i) => seg === '*' || seg === String(path[i]));
}

/** Whether the path starts with (or equals) a pattern: the pattern covers a whole subtree. */
export function underPattern(path: JsonPath, pattern: readonly string[]): boolean {
  if (path.length < pattern.length) return false;
  return pattern.every((seg, i) => seg === '*' || seg === String(path[i]));
}

/** Parses a slash-separated pattern text ('a/STAR/b', with a literal star) into segments. */
export function pattern(text: string): string[] {
  return text.split('/').filter((s) => s.length > 0);
}

/**
 * `value` without what lies at the patterns' paths (object keys only; a pattern's `*` matches any
 * key or index). Unchanged subtrees are shared with the input, which is never modified.
 */
export function withoutPaths(value: JsonObject, patterns: readonly string[]): JsonObject {
  return patterns.length === 0 ? value : (dropAt(value, [], patterns.map(pattern)) as JsonObject);
}

function dropAt(value: JsonValue, path: JsonPath, patterns: readonly (readonly string[])[]): JsonValue {
  // Only descend where some pattern can still match below.
  const live = patterns.filter((p) => p.length > path.length && p.slice(0, path.length).every((seg, i) => seg === '*' || seg === String(path[i])));
  if (live.length === 0) return value;
  if (Array.isArray(value)) return value.map((v, i) => dropAt(v, [...path, i], live));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    const at = [...path, k];
    if (!live.some((p) => matchesPattern(at, p))) out[k] = dropAt(v, at, live);
  }
  return out;
}
