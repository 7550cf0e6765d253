// Fields another system owns (metadata.ignoreChanges, `ignore:` rules of the config): paths as
// plan prints them ('/properties/containers[name=web]/properties/environmentVariables[name=X]',
// '/tags/*'). The desired spec takes the live value there before it is compared, so an ignored
// field is never a diff, and a write that sends the whole body carries the live value back.
import { fieldOf, isObject, valueText, type JsonObject, type JsonPath, type JsonValue } from '../../core/json.js';
import type { CompiledRules } from './compiled-rules.js';
import { namedPath, type NamedSegment } from './named-path.js';
import { deepEqual } from './equal.js';

/** An object key (or an index of a list without keys), any key or element (`*`), or a named element. */
export type IgnoreSegment =
  { readonly type: 'key'; readonly key: string } | { readonly type: 'any' } | { readonly type: 'named'; readonly key: string; readonly value: string };

/** A parsed ignore path, with its text as written (for messages). */
export interface IgnorePath {
  readonly text: string;
  readonly segments: readonly IgnoreSegment[];
}

/** Parses '/a/b[name=x]/*'; a message when the text is no such path. */
export function parseIgnorePath(text: string): IgnorePath | string {
  if (typeof text !== 'string' || !text.startsWith('/') || text.length < 2)
    return 'must be a field path as plan prints it, starting with "/" (e.g. /tags/* or /properties/containers[name=web]/properties/image)';
  const segments: IgnoreSegment[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '/') {
      let j = i + 1;
      while (j < text.length && text[j] !== '/' && text[j] !== '[') j++;
      const raw = text.slice(i + 1, j);
      if (raw === '') return `has an empty segment at character ${i + 1}`;
      segments.push(raw === '*' ? { type: 'any' } : { type: 'key', key: raw.replace(/~1/g, '/').replace(/~0/g, '~') });
      i = j;
    } else if (text[i] === '[') {
      const end = text.indexOf(']', i);
      const body = end < 0 ? '' : text.slice(i + 1, end);
      const eq = body.indexOf('=');
      if (end < 0 || eq <= 0) return `has a selector at character ${i + 1} that is not [key=value]`;
      segments.push({ type: 'named', key: body.slice(0, eq), value: body.slice(eq + 1) });
      i = end + 1;
    } else {
      return `has "${text[i]}" at character ${i + 1} where "/" or "[" belongs`;
    }
  }
  return { text, segments };
}

/** The spec with each ignored field as live holds it, and the concrete places (named paths) that matched. */
export interface KeptLive {
  readonly spec: JsonObject;
  readonly places: readonly string[];
}

/**
 * `desired` with the live value at every ignored path (absent where live has none). Elements of a
 * named array that the manifest lacks are taken whole only where the path ends at them; server-filled
 * parts of a taken value are left out and its secrets (never returned) kept from the manifest.
 */
export function keepIgnoredLive(desired: JsonObject, live: JsonObject, paths: readonly IgnorePath[], rules: CompiledRules): KeptLive {
  const places: string[] = [];
  let spec: JsonValue = desired;
  for (const p of paths) spec = (take(spec, live, p.segments, 0, [], [], rules, places) as JsonObject | undefined) ?? {};
  return { spec: spec, places };
}

function take(
  d: JsonValue | undefined,
  l: JsonValue | undefined,
  segs: readonly IgnoreSegment[],
  i: number,
  path: (string | number)[],
  np: NamedSegment[],
  rules: CompiledRules,
  places: string[],
): JsonValue | undefined {
  if (i === segs.length) {
    if (!deepEqual(d, l)) places.push(namedPath(np));
    return liveCopy(d, l, path, rules);
  }
  if (Array.isArray(d) || Array.isArray(l))
    return takeInArray(Array.isArray(d) ? d : undefined, Array.isArray(l) ? l : undefined, segs, i, path, np, rules, places, d);
  if (!(isObject(d) || d === undefined) || !(isObject(l) || l === undefined) || (d === undefined && l === undefined)) return d;
  const seg = segs[i];
  if (seg.type === 'named') return d;
  const keys = seg.type === 'any' ? [...new Set([...Object.keys(d ?? {}), ...Object.keys(l ?? {})])] : [seg.key];
  let out: JsonObject | undefined = d;
  for (const k of keys) {
    if (rules.isServer([...path, k])) continue;
    const before = d?.[k];
    const next = take(before, l?.[k], segs, i + 1, [...path, k], [...np, k], rules, places);
    if (next === before) continue;
    if (next === undefined) {
      const { [k]: _dropped, ...rest } = out ?? {};
      out = rest;
    } else out = { ...(out ?? {}), [k]: next };
  }
  return out;
}

function takeInArray(
  d: JsonValue[] | undefined,
  l: JsonValue[] | undefined,
  segs: readonly IgnoreSegment[],
  i: number,
  path: (string | number)[],
  np: NamedSegment[],
  rules: CompiledRules,
  places: string[],
  original: JsonValue | undefined,
): JsonValue | undefined {
  if (original !== undefined && d === undefined) return original; // the manifest has no list here
  const seg = segs[i];
  const key = rules.keyOf(path);
  if (key === undefined) {
    // A list without keys: by index, or whole where `*` ends the path.
    if (seg.type === 'named') return original;
    if (seg.type === 'any' && i === segs.length - 1) return take(d, l, segs, segs.length, path, np, rules, places);
    const indexes = seg.type === 'any' ? [...Array(Math.min(d?.length ?? 0, l?.length ?? 0)).keys()] : /^\d+$/.test(seg.key) ? [Number(seg.key)] : [];
    let copy: JsonValue[] | undefined;
    for (const n of indexes) {
      if (!d || n >= d.length) continue;
      const next = take(d[n], l?.[n], segs, i + 1, [...path, n], [...np, n], rules, places);
      if (next === d[n] || next === undefined) continue;
      copy ??= [...d];
      copy[n] = next;
    }
    return copy ?? d;
  }
  const nameOf = (e: JsonValue) => {
    const name = isObject(e) ? fieldOf(e, key) : undefined;
    return name === undefined || name === null ? undefined : valueText(name);
  };
  const names =
    seg.type === 'named'
      ? seg.key === key
        ? [seg.value]
        : []
      : seg.type === 'any'
        ? [...new Set([...(d ?? []), ...(l ?? [])].map(nameOf).filter((n): n is string => n !== undefined))]
        : [];
  let out = d;
  const last = i === segs.length - 1;
  for (const name of names) {
    const di = (out ?? []).findIndex((e) => nameOf(e) === name);
    const li = (l ?? []).findIndex((e) => nameOf(e) === name);
    if (di < 0 && (li < 0 || !last)) continue; // a partial element the manifest lacks would be no element
    const at = di >= 0 ? di : (out?.length ?? 0);
    const mine = di >= 0 ? out?.[di] : undefined;
    const next = take(mine, li >= 0 ? l?.[li] : undefined, segs, i + 1, [...path, at], [...np, { key, value: name }], rules, places);
    if (di >= 0 && next === mine) continue;
    const copy = [...(out ?? [])];
    if (next === undefined) copy.splice(di, 1);
    else if (di >= 0) copy[di] = next;
    else copy.push(next);
    out = copy;
  }
  return out;
}

/** The live value to send at `path`: server-filled parts left out, the manifest's secrets (never returned) kept. */
function liveCopy(d: JsonValue | undefined, l: JsonValue | undefined, path: JsonPath, rules: CompiledRules): JsonValue | undefined {
  if (rules.isWriteOnly(path)) return d;
  if (l === undefined || l === null) return undefined;
  if (isObject(l)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(l)) {
      if (rules.isServer([...path, k])) continue;
      const kept = liveCopy(isObject(d) ? d[k] : undefined, v, [...path, k], rules);
      if (kept !== undefined) out[k] = kept;
    }
    if (isObject(d)) for (const [k, v] of Object.entries(d)) if (fieldOf(out, k) === undefined && rules.isWriteOnly([...path, k])) out[k] = v;
    return out;
  }
  if (Array.isArray(l)) {
    const key = rules.keyOf(path);
    return l.map((e, n) => {
      const mine = Array.isArray(d) ? (key !== undefined && isObject(e) ? d.find((x) => isObject(x) && x[key] === e[key]) : d[n]) : undefined;
      return liveCopy(mine, e, [...path, n], rules) ?? null;
    });
  }
  return l;
}

/** Whether a field's named path is an ignored place, lies under one, or holds one (a whole `tags` removed where `/tags/*` is ignored). */
export function isUnderPlace(fieldPath: string, places: readonly string[]): boolean {
  const under = (a: string, b: string) => a === b || a.startsWith(b + '/') || a.startsWith(b + '[');
  return places.some((p) => under(fieldPath, p) || under(p, fieldPath));
}
