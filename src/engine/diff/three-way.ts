// The three-way comparison of a resource: last applied (state), desired (manifest), live (service).
// Every field the manifest sets is compared; where the next write sends a subtree whole (a PUT
// of the body), a live value the manifest lacks is a removal too. Server-filled and defaulted
// fields never differ; write-only fields (secrets, never returned) compare against state; named
// arrays compare by key; values the service normalises (locations, ids) compare normalised.
import type { FieldChange } from '../plan/types.js';
import { fieldOf, isObject, toPointer, valueText, type JsonObject, type JsonPath, type JsonValue } from '../../core/json.js';
import { ADOPTED_SECRET, isHashed, keepsAdoptedSecret, maskSensitive, matchesSecret, SENSITIVE_MASK, isSensitivePath } from '../secrets.js';
import { isUnknown, markUnknowns } from '../unknown.js';
import type { DiffRules } from '../../core/kind.js';
import { compileRules, type CompiledRules } from './compiled-rules.js';
import { namedPath, type NamedSegment } from './named-path.js';
import { comparable } from '../../core/normalize.js';

export interface DiffInput {
  readonly desired: JsonObject;
  /** The last-applied spec from state (secrets hashed); undefined when state has no record. */
  readonly last: JsonObject | undefined;
  readonly live: JsonObject;
  readonly rules: DiffRules;
  readonly sensitive: readonly string[];
}

/** A field change plus the path in the desired spec (what a handler's update needs). */
export interface FieldDiff extends FieldChange {
  readonly desiredPath: JsonPath;
  readonly pointer: string;
}

/** Where a compared value sits: in the desired spec, in the live resource, and as people read it. */
interface At {
  readonly dp: JsonPath;
  readonly lp: JsonPath;
  readonly np: readonly NamedSegment[];
}

const child = (at: At, desiredKey: string | number, liveKey: string | number, named: NamedSegment = desiredKey): At => ({
  dp: [...at.dp, desiredKey],
  lp: [...at.lp, liveKey],
  np: [...at.np, named],
});

/** Every field the next write would change, labelled manifest-changed or drifted. */
export function diffResource(input: DiffInput): FieldDiff[] {
  const rules = compileRules(input.rules);
  const out: FieldDiff[] = [];
  const hasRecord = input.last !== undefined;

  const mask = (value: JsonValue | undefined, path: JsonPath): JsonValue | undefined => {
    if (value === undefined) return undefined;
    if (isSensitivePath(path, input.sensitive)) return SENSITIVE_MASK;
    if (!isObject(value) && !Array.isArray(value)) return value;
    // Mask secrets nested inside a whole added/removed element.
    return markUnknowns(pick(maskSensitive(nest(path, value), input.sensitive), path));
  };

  const push = (
    op: FieldChange['op'],
    at: At,
    before: JsonValue | undefined,
    after: JsonValue | undefined,
    cause: FieldChange['cause'],
    membershipChange = false,
    lastBefore?: JsonValue,
  ): void => {
    const unknown = after !== undefined && isUnknown(after) && !isSensitivePath(at.dp, input.sensitive);
    const shownBefore = hideRecordedSecrets(mask(before, at.dp), lastBefore);
    const shownAfter = unknown ? undefined : mask(after, at.dp);
    out.push({
      path: namedPath(at.np),
      pointer: toPointer(at.lp),
      desiredPath: at.dp,
      op,
      ...(shownBefore !== undefined ? { before: shownBefore } : {}),
      ...(shownAfter !== undefined ? { after: shownAfter } : {}),
      ...(unknown ? { unknown: true } : {}),
      // Without a record there is no last apply for live to have moved from: what differs is unverified, never drift.
      cause: hasRecord ? cause : 'manifest',
      sensitive: isSensitivePath(at.dp, input.sensitive),
      forcesReplace: rules.isImmutable(at.dp) || (membershipChange && rules.isImmutableMembership(at.dp.slice(0, -1))),
    });
  };

  const visit = (at: At, d: JsonValue, last: JsonValue | undefined, live: JsonValue | undefined): void => {
    if (rules.isServer(at.dp)) return;
    if (rules.isWriteOnly(at.dp)) {
      if (!hasRecord) return; // nothing to compare with: unknown, never a perpetual diff
      // An adopted secret moor never saw stays unchanged until the manifest gives it a value.
      const same = last === ADOPTED_SECRET ? keepsAdoptedSecret(d) : isHashed(last) ? matchesSecret(d, last) : equalAt(rules, at.dp, d, last);
      if (!same) push(last === undefined ? 'add' : 'replace', at, last === undefined ? undefined : d, d, 'manifest');
      return;
    }
    if (isObject(d) && isObject(live)) {
      visitObject(at, d, isObject(last) ? last : undefined, live);
      return;
    }
    const key = rules.keyOf(at.dp);
    if (key && Array.isArray(d) && Array.isArray(live) && keyed(d, key) && keyed(live, key)) {
      visitKeyed(at, d, Array.isArray(last) ? last : undefined, live, key);
      return;
    }
    if (!isUnknown(d) && equalAt(rules, at.dp, d, live)) return;
    // A placeholder's value is kept in state as a hash: it still tells a manifest change from drift.
    const sameAsLast = last !== undefined && !isUnknown(d) && (isHashed(last) ? matchesSecret(d, last) : equalAt(rules, at.dp, d, last));
    const cause = sameAsLast ? 'drift' : 'manifest';
    push(live === undefined ? 'add' : 'replace', at, live, d, cause);
  };

  const visitObject = (at: At, d: JsonObject, last: JsonObject | undefined, live: JsonObject): void => {
    const find = keyFinder(rules.ignoresKeyCase(at.dp));
    const matched = new Set<string>();
    for (const [k, v] of Object.entries(d)) {
      const liveKey = find(live, k) ?? k;
      matched.add(liveKey);
      visit(child(at, k, liveKey), v, last ? last[find(last, k) ?? k] : undefined, live[liveKey]);
    }
    // A live view a kind builds in code may leave a field undefined.
    for (const [liveKey, value] of Object.entries(live) as [string, JsonValue | undefined][]) {
      if (matched.has(liveKey) || value === undefined || value === null) continue;
      const at2 = child(at, liveKey, liveKey);
      if (rules.isServer(at2.dp) || rules.isWriteOnly(at2.dp)) continue;
      const setBefore = last !== undefined && find(last, liveKey) !== undefined;
      if (rules.isSentWhole(at2.dp)) {
        // The write sends this whole: what live holds here and the service would not fill in again is lost.
        const lost = residue(rules, at2.dp, value);
        if (lost !== undefined) push('remove', at2, lost, undefined, setBefore ? 'manifest' : 'drift', false, last?.[find(last, liveKey) ?? liveKey]);
      } else if (setBefore) {
        push('remove', at2, value, undefined, 'manifest', false, last[find(last, liveKey) ?? liveKey]); // a field dropped from the manifest moor set before
      }
    }
  };

  const visitKeyed = (at: At, d: JsonValue[], last: JsonValue[] | undefined, live: JsonValue[], key: string): void => {
    const how = rules.comparisonAt([...at.dp, 0, key]);
    const keyOf = (e: JsonValue) => valueText(comparable(valueText(fieldOf(e as JsonObject, key)), how));
    const liveIndex = new Map(live.map((e, i) => [keyOf(e), i]));
    const lastByKey = new Map((last ?? []).filter(isObject).map((e) => [keyOf(e), e]));
    const wanted = new Set(d.map(keyOf));
    d.forEach((e, i) => {
      const named: NamedSegment = { key, value: valueText((e as JsonObject)[key]) };
      const li = liveIndex.get(keyOf(e));
      if (li === undefined) {
        push('add', { dp: [...at.dp, i], lp: [...at.lp, '-'], np: [...at.np, named] }, undefined, e, lastByKey.has(keyOf(e)) ? 'drift' : 'manifest', true);
      } else {
        visit(child(at, i, li, named), e, lastByKey.get(keyOf(e)), live[li]);
      }
    });
    // Remove from the end so earlier indexes in the patch stay valid.
    for (let li = live.length - 1; li >= 0; li--) {
      const k = keyOf(live[li]);
      if (wanted.has(k)) continue;
      const named: NamedSegment = { key, value: valueText((live[li] as JsonObject)[key]) };
      const at2 = child(at, li, li, named);
      push('remove', at2, residue(rules, at2.dp, live[li]) ?? live[li], undefined, lastByKey.has(k) ? 'manifest' : 'drift', true, lastByKey.get(k));
    }
  };

  visit({ dp: [], lp: [], np: [] }, input.desired, input.last, input.live);
  return out;
}

/** Finds the key of `obj` that matches `k` (ignoring case where the rules say so). */
function keyFinder(ignoreCase: boolean): (obj: JsonObject, k: string) => string | undefined {
  if (!ignoreCase) return (obj, k) => (fieldOf(obj, k) !== undefined ? k : undefined);
  return (obj, k) => Object.keys(obj).find((o) => o.toLowerCase() === k.toLowerCase());
}

/** Structural equality where values the service normalises compare normalised. */
export function equalAt(rules: CompiledRules, path: JsonPath, a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  const how = rules.comparisonAt(path);
  if (how && typeof a === 'string' && typeof b === 'string') return comparable(a, how) === comparable(b, how);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => equalAt(rules, [...path, i], v, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => fieldOf(a, k) !== undefined);
    const kb = Object.keys(b).filter((k) => fieldOf(b, k) !== undefined);
    const find = keyFinder(rules.ignoresKeyCase(path));
    return (
      ka.length === kb.length &&
      ka.every((k) => {
        const kk = find(b, k);
        return kk !== undefined && equalAt(rules, [...path, k], a[k], b[kk]);
      })
    );
  }
  return false;
}

/**
 * What of a live value a write that leaves it out would lose: server-filled and write-only parts
 * dropped, a value equal to the service's default dropped, empty objects and arrays dropped.
 * Undefined when nothing is lost.
 */
export function residue(rules: CompiledRules, path: JsonPath, value: JsonValue | undefined): JsonValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (rules.isServer(path) || rules.isWriteOnly(path)) return undefined;
  const fallback = rules.defaultAt(path);
  if (fallback !== undefined && equalAt(rules, path, value, fallback)) return undefined;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    return value.map((e, i) => residue(rules, [...path, i], e) ?? (isObject(e) ? {} : e));
  }
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      const kept = residue(rules, [...path, k], v);
      if (kept !== undefined) out[k] = kept;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return value;
}

function keyed(items: JsonValue[], key: string): boolean {
  const seen = new Set<string>();
  for (const e of items) {
    if (!isObject(e) || fieldOf(e, key) === undefined) return false;
    const k = valueText(e[key]);
    if (seen.has(k)) return false;
    seen.add(k);
  }
  return true;
}

/**
 * A removed value shown without what state recorded as a secret: where the last apply kept a hash
 * (a placeholder's value no longer in the manifest), the live value shows as '(sensitive)'.
 */
function hideRecordedSecrets(value: JsonValue | undefined, last: JsonValue | undefined): JsonValue | undefined {
  if (value === undefined || last === undefined) return value;
  if (isHashed(last)) return SENSITIVE_MASK;
  if (isObject(value) && isObject(last)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hideRecordedSecrets(v, last[k]) as JsonValue]));
  if (Array.isArray(value) && Array.isArray(last)) return value.map((v, i) => hideRecordedSecrets(v, last[i]) as JsonValue);
  return value;
}

/** Wraps a value at a path inside empty containers, so path-based masking applies to it. */
function nest(path: JsonPath, value: JsonValue): JsonObject {
  let cur: JsonValue = value;
  for (let i = path.length - 1; i >= 0; i--) {
    const seg = path[i];
    if (typeof seg === 'number') {
      const arr: JsonValue[] = [];
      arr[seg] = cur;
      cur = arr;
    } else cur = { [seg]: cur };
  }
  return cur as JsonObject;
}

function pick(doc: JsonValue, path: JsonPath): JsonValue {
  let cur: JsonValue = doc;
  for (const seg of path) cur = Array.isArray(cur) ? cur[Number(seg)] : (cur as JsonObject)[String(seg)];
  return cur;
}
