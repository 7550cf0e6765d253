// Ignore paths (metadata.ignoreChanges, `ignore:` rules of the config) checked against the kind's
// spec schema: a path that can never name a field is a mistake, not a rule that quietly does nothing.
import { isObject, valueText, type JsonFields, type JsonValue } from '../../core/json.js';
import type { KindDefinition } from '../../core/kind.js';
import { compileRules } from '../diff/compiled-rules.js';
import { parseIgnorePath, type IgnorePath, type IgnoreSegment } from '../diff/ignore-paths.js';

/** The parsed path, or why it cannot be one of this kind's fields. */
export function checkIgnorePath(text: unknown, kind: KindDefinition): IgnorePath | string {
  if (kind.category !== 'resource') return `${kind.kind} is not compared with a live resource, so it has no fields to ignore`;
  if (typeof text !== 'string') return 'must be a field path as plan prints it, e.g. /tags/*';
  const parsed = parseIgnorePath(text);
  if (typeof parsed === 'string') return `${text} ${parsed}`;
  const keyOf = compileRules(kind.diff).keyOf;
  const problem = walk(kind.specSchema, parsed.segments, 0, [], keyOf);
  return problem === undefined ? parsed : `${text}: ${problem} in the schema of ${kind.kind}`;
}

/** Undefined when the path can exist below `schema`, else what stops it. */
function walk(
  schema: unknown,
  segs: readonly IgnoreSegment[],
  i: number,
  path: (string | number)[],
  keyOf: (p: (string | number)[]) => string | undefined,
): string | undefined {
  if (i === segs.length) return undefined;
  if (schema === true || schema === undefined) return undefined; // open: anything may be there
  if (!isObject(schema)) return `nothing can be at ${shown(segs, i)}`;
  const s: JsonFields = schema; // a kind's JSON Schema: any keyword may be absent
  const list = (v: JsonValue | undefined) => (Array.isArray(v) ? v : []);
  const branches = [...list(s.anyOf), ...list(s.oneOf), ...list(s.allOf)];
  if (branches.length > 0 && !s.properties && !s.items) {
    const problems = branches.map((b) => walk(b, segs, i, path, keyOf));
    return problems.includes(undefined) ? undefined : problems[0];
  }
  const seg = segs[i];
  if (s.type === 'array' || s.items !== undefined) {
    if (seg.type === 'named') {
      const key = keyOf(path);
      if (key === undefined) return `${shown(segs, i)} selects by [${seg.key}=…], but the list at ${shown(segs, i - 1) || '/'} has no key field`;
      if (key !== seg.key) return `${shown(segs, i)} selects by [${seg.key}=…], but the list's elements are named by ${key}`;
    } else if (seg.type === 'key' && !/^\d+$/.test(seg.key)) {
      return `${shown(segs, i)} names a key of a list (select an element by [key=value], or * for every one)`;
    }
    return walk(s.items, segs, i + 1, [...path, 0], keyOf);
  }
  if (seg.type === 'named') return `${shown(segs, i)} selects an element, but ${shown(segs, i - 1) || '/'} is no list`;
  const properties = isObject(s.properties) ? s.properties : {};
  const extra = s.additionalProperties;
  if (s.type !== undefined && s.type !== 'object') return `${shown(segs, i)}: ${shown(segs, i - 1) || '/'} is a ${valueText(s.type)}, not a mapping`;
  const open = extra === undefined ? true : extra;
  if (seg.type === 'any') {
    const options = [...Object.entries(properties).map(([k, s]) => ({ k, s })), ...(open !== false ? [{ k: '*', s: open }] : [])];
    const problems = options.map((o) => walk(o.s, segs, i + 1, [...path, o.k], keyOf));
    return problems.length === 0 ? `${shown(segs, i)}: nothing can be there` : problems.includes(undefined) ? undefined : problems[0];
  }
  if (seg.key in properties) return walk(properties[seg.key], segs, i + 1, [...path, seg.key], keyOf);
  if (open === false) {
    const known = Object.keys(properties);
    return `${shown(segs, i)}: no field ${seg.key}${known.length > 0 ? ` (known here: ${known.join(', ')})` : ''}`;
  }
  return walk(open, segs, i + 1, [...path, seg.key], keyOf);
}

/** The path up to and including segment `i`, as written. */
function shown(segs: readonly IgnoreSegment[], i: number): string {
  return segs
    .slice(0, i + 1)
    .map((s) => (s.type === 'named' ? `[${s.key}=${s.value}]` : s.type === 'any' ? '/*' : `/${s.key}`))
    .join('');
}
