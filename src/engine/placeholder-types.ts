// `${env:}` and `${file:}` give text; a placeholder that is the whole value of a number or boolean
// field takes the field's type (`cpu: ${env:CPU}` sends 2, not "2"). The field's type comes from
// the kind's JSON Schema, so the engine needs to know no kind.
import { isObject, type JsonObject, type JsonPath, type JsonValue } from '../core/json.js';

/** The type a placeholder's text is turned into; string fields keep the text. */
export type FilledType = 'number' | 'integer' | 'boolean';

/**
 * The scalar type the schema gives the value at `path` (a path inside the spec), when it is a
 * number, integer or boolean and never a string; undefined for strings, objects, or a path the
 * schema does not describe.
 */
export function filledTypeAt(schema: JsonObject, path: JsonPath): FilledType | undefined {
  const types = new Set<string>();
  collectTypes(schema, path, types);
  if (types.size === 0 || types.has('string')) return undefined;
  if (types.has('number')) return 'number';
  if (types.has('integer')) return 'integer';
  return types.has('boolean') && types.size === 1 ? 'boolean' : undefined;
}

function collectTypes(schema: JsonValue | undefined, path: JsonPath, into: Set<string>): void {
  if (!isObject(schema)) return;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) for (const s of list) collectTypes(s, path, into);
  }
  if (path.length === 0) {
    const type = schema.type;
    for (const t of Array.isArray(type) ? type : [type]) if (typeof t === 'string') into.add(t);
    return;
  }
  const [step, ...rest] = path;
  if (typeof step === 'number') {
    collectTypes(schema.items, rest, into);
    return;
  }
  const props = isObject(schema.properties) ? schema.properties : undefined;
  if (props && Object.prototype.hasOwnProperty.call(props, step)) collectTypes(props[step], rest, into);
  else if (isObject(schema.additionalProperties)) collectTypes(schema.additionalProperties, rest, into);
}

const NUMBER_TEXT = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** The placeholder's text as the field's type, or why it cannot be (the text shown, cut short). */
export function typedText(text: string, type: FilledType): { ok: true; value: number | boolean } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (type === 'boolean') {
    const lower = trimmed.toLowerCase();
    if (lower === 'true' || lower === 'false') return { ok: true, value: lower === 'true' };
    return { ok: false, message: `must be true or false, got ${shown(text)}` };
  }
  if (NUMBER_TEXT.test(trimmed)) return { ok: true, value: Number(trimmed) };
  return { ok: false, message: `must be ${type === 'integer' ? 'an integer' : 'a number'}, got ${shown(text)}` };
}

function shown(text: string): string {
  const json = JSON.stringify(text);
  return json.length > 40 ? `${json.slice(0, 39)}…` : json;
}
