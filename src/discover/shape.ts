// The spec a person would write, from a kind's adopted spec and its own rules: hidden secrets as
// `${env:NAME}`, no service-filled field, no value the service fills in by default, no name field
// that only repeats metadata.name, nothing the kind's schema does not know (said, with the reason),
// and the keys in the schema's order.
import { isObject, matchesPattern, pattern, type JsonObject, type JsonPath, type JsonValue } from '../core/json.js';
import type { AdoptedSpec, ResourceKind } from '../core/kind.js';
import { comparable } from '../core/normalize.js';

export interface Unwritten {
  readonly path: JsonPath;
  readonly reason: string;
}

export interface ShapedSpec {
  readonly spec: JsonObject;
  readonly unwritten: Unwritten[];
}

/** `placeholder(i)`: the `${env:NAME}` of the adopted spec's i-th secret. */
/** A spec path as people read it: an element of a named list by its name (`containers[name=api]`). */
export function namedFieldPath(spec: JsonObject, path: JsonPath): string {
  let cur: JsonValue | undefined = spec;
  let out = 'spec';
  for (const seg of path) {
    const next: JsonValue | undefined = Array.isArray(cur) ? cur[Number(seg)] : isObject(cur) ? cur[String(seg)] : undefined;
    if (typeof seg === 'number') out += isObject(next) && typeof next.name === 'string' ? `[name=${next.name}]` : `[${seg}]`;
    else out += `.${seg}`;
    cur = next;
  }
  return out;
}

export function shapeSpec(kind: ResourceKind, adopted: AdoptedSpec, metadataName: string, placeholder: (index: number) => string): ShapedSpec {
  let spec = structuredClone(adopted.spec);
  adopted.secrets.forEach((s, i) => setAt(spec, s.path, placeholder(i)));
  const { server, defaults } = rulesOf(kind);
  spec = prune(
    spec,
    [],
    (path, value) => server.some((p) => matchesPattern(path, p)) || defaults.some((d) => matchesPattern(path, d.at) && sameValue(value, d.value, d.how)),
  ) as JsonObject;
  const nameField = kind.resource.nameField;
  if (nameField && spec[nameField] === metadataName) spec = Object.fromEntries(Object.entries(spec).filter(([key]) => key !== nameField));
  const unwritten: Unwritten[] = [...adopted.unwritten];
  return { spec: ordered(spec, kind.specSchema, [], unwritten) as JsonObject, unwritten };
}

interface DropRules {
  readonly server: readonly string[][];
  readonly defaults: readonly { at: string[]; value: JsonValue; how: 'location' | 'ignoreCase' | undefined }[];
}

const compiled = new WeakMap<ResourceKind, DropRules>();

/** The kind's service-filled paths and defaults as parsed patterns, parsed once per kind. */
function rulesOf(kind: ResourceKind): DropRules {
  let rules = compiled.get(kind);
  if (!rules) {
    rules = {
      server: kind.diff.serverPopulated.map(pattern),
      defaults: Object.entries(kind.diff.defaults ?? {}).map(([p, value]) => ({ at: pattern(p), value, how: kind.diff.compare?.[p] })),
    };
    compiled.set(kind, rules);
  }
  return rules;
}

function sameValue(a: JsonValue, b: JsonValue, how: 'location' | 'ignoreCase' | undefined): boolean {
  if (typeof a === 'string' && typeof b === 'string') return comparable(a, how ?? 'ignoreCase') === comparable(b, how ?? 'ignoreCase');
  return a === b;
}

/** The value without what `drop` names (arrays keep their other elements). */
function prune(value: JsonValue, path: JsonPath, drop: (path: JsonPath, value: JsonValue) => boolean): JsonValue {
  if (Array.isArray(value)) return value.map((v, i) => prune(v, [...path, i], drop));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  // A kind's adopted spec is built in code: an optional field it left unset is there as undefined.
  for (const [k, v] of Object.entries(value) as [string, JsonValue | undefined][]) {
    if (v === undefined || v === null || drop([...path, k], v)) continue;
    out[k] = prune(v, [...path, k], drop);
  }
  return out;
}

/** Keys in the schema's order; a key the schema does not allow is left out and said. */
function ordered(value: JsonValue, schema: JsonValue | undefined, path: JsonPath, unwritten: Unwritten[]): JsonValue {
  if (!isObject(schema)) return value;
  if (Array.isArray(value)) return value.map((v, i) => ordered(v, schema.items, [...path, i], unwritten));
  if (!isObject(value)) return value;
  const props = isObject(schema.properties) ? schema.properties : undefined;
  const extra = schema.additionalProperties;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const out: JsonObject = {};
  for (const [key, propSchema] of props ? Object.entries(props) : []) {
    const v = value[key] as JsonValue | undefined; // a field the schema knows may be absent
    if (v === undefined) continue;
    // An empty list the schema does not require is what the service answers for none: a person writes nothing.
    if (Array.isArray(v) && v.length === 0 && !required.has(key)) continue;
    out[key] = ordered(v, propSchema, [...path, key], unwritten);
  }
  for (const [key, v] of Object.entries(value)) {
    if (props && Object.prototype.hasOwnProperty.call(props, key)) continue;
    if (extra === false && props) {
      unwritten.push({
        path: [...path, key],
        reason: "moor's schema does not know this field: left out, so plan shows what the next write would do without it",
      });
      continue;
    }
    out[key] = ordered(v, isObject(extra) ? extra : undefined, [...path, key], unwritten);
  }
  return out;
}

function setAt(doc: JsonObject, path: JsonPath, value: JsonValue): void {
  let cur: JsonValue = doc;
  for (const seg of path.slice(0, -1)) cur = Array.isArray(cur) ? cur[Number(seg)] : (cur as JsonObject)[String(seg)];
  const last = path[path.length - 1];
  if (Array.isArray(cur)) cur[Number(last)] = value;
  else (cur as JsonObject)[String(last)] = value;
}
