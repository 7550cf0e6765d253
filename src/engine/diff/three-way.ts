// The three-way comparison of a resource: last applied (state), desired (manifest), live (service).
// Only fields the manifest sets are compared; server-filled fields never differ; write-only
// fields (secrets, never returned) compare against state; named arrays compare by key.
import type { FieldChange } from '../plan/types.js';
import { isObject, pattern, toPointer, underPattern, matchesPattern, type JsonObject, type JsonPath, type JsonValue } from '../json.js';
import { isHashed, maskSensitive, matchesSecret, SENSITIVE_MASK, isSensitivePath } from '../secrets.js';
import type { DiffRules } from '../../resources/kind.js';
import { deepEqual } from './equal.js';

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
}

type Patterns = ReadonlyArray<readonly string[]>;

interface Compiled {
  readonly server: Patterns;
  readonly writeOnly: Patterns;
  readonly immutable: Patterns;
  readonly membership: Patterns;
  readonly keys: ReadonlyArray<{ pattern: readonly string[]; key: string }>;
}

const cache = new WeakMap<DiffRules, Compiled>();

function compile(rules: DiffRules): Compiled {
  let c = cache.get(rules);
  if (!c) {
    c = {
      server: rules.serverPopulated.map(pattern),
      writeOnly: rules.writeOnly.map(pattern),
      immutable: rules.immutable.map(pattern),
      membership: (rules.immutableMembership ?? []).map(pattern),
      keys: Object.entries(rules.arrayKeys).map(([p, key]) => ({ pattern: pattern(p), key })),
    };
    cache.set(rules, c);
  }
  return c;
}

const under = (path: JsonPath, ps: Patterns) => ps.some((p) => underPattern(path, p));

/** Every field of `desired` that differs from live, labelled manifest-changed or drifted. */
export function diffResource(input: DiffInput): FieldDiff[] {
  const rules = compile(input.rules);
  const out: FieldDiff[] = [];
  const hasRecord = input.last !== undefined;
  const mask = (value: JsonValue | undefined, path: JsonPath): JsonValue | undefined => {
    if (value === undefined) return undefined;
    if (isSensitivePath(path, input.sensitive)) return SENSITIVE_MASK;
    if (!isObject(value) && !Array.isArray(value)) return value;
    // Mask secrets nested inside a whole added/removed element.
    const wrapped = maskSensitive(nest(path, value), input.sensitive);
    return pick(wrapped, path);
  };

  const push = (op: FieldChange['op'], desiredPath: JsonPath, livePath: JsonPath, before: JsonValue | undefined, after: JsonValue | undefined, cause: FieldChange['cause'], membershipChange = false) => {
    out.push({
      path: toPointer(livePath),
      desiredPath,
      op,
      before: mask(before, desiredPath),
      after: mask(after, desiredPath),
      cause,
      sensitive: isSensitivePath(desiredPath, input.sensitive),
      forcesReplace: under(desiredPath, rules.immutable) || (membershipChange && rules.membership.some((p) => matchesPattern(desiredPath.slice(0, -1), p))),
    });
  };

  const visit = (dp: JsonPath, lp: JsonPath, d: JsonValue, last: JsonValue | undefined, live: JsonValue | undefined): void => {
    if (under(dp, rules.server)) return;
    if (under(dp, rules.writeOnly)) {
      if (!hasRecord) return; // nothing to compare with: unknown, never a perpetual diff
      const same = isHashed(last) ? matchesSecret(d, last) : deepEqual(d, last);
      if (!same) push(last === undefined ? 'add' : 'replace', dp, lp, last === undefined ? undefined : d, d, 'manifest');
      return;
    }
    if (isObject(d) && isObject(live)) {
      for (const [k, v] of Object.entries(d)) visit([...dp, k], [...lp, k], v, isObject(last) ? last[k] : undefined, live[k]);
      if (isObject(last)) {
        for (const k of Object.keys(last)) {
          const child = [...dp, k];
          if (!(k in d) && live[k] !== undefined && !under(child, rules.server) && !under(child, rules.writeOnly)) {
            push('remove', child, [...lp, k], live[k], undefined, 'manifest');
          }
        }
      }
      return;
    }
    const key = keyFor(dp);
    if (key && Array.isArray(d) && Array.isArray(live) && keyed(d, key) && keyed(live, key)) {
      visitKeyed(dp, lp, d, Array.isArray(last) ? last : undefined, live, key);
      return;
    }
    if (deepEqual(d, live)) return;
    const cause = last !== undefined && deepEqual(d, last) ? 'drift' : 'manifest';
    push(live === undefined ? 'add' : 'replace', dp, lp, live, d, cause);
  };

  const visitKeyed = (dp: JsonPath, lp: JsonPath, d: JsonValue[], last: JsonValue[] | undefined, live: JsonValue[], key: string): void => {
    const keyOf = (e: JsonValue) => String((e as JsonObject)[key]);
    const liveIndex = new Map(live.map((e, i) => [keyOf(e), i]));
    const lastByKey = new Map((last ?? []).filter(isObject).map((e) => [keyOf(e), e]));
    const wanted = new Set(d.map(keyOf));
    d.forEach((e, i) => {
      const li = liveIndex.get(keyOf(e));
      if (li === undefined) {
        push('add', [...dp, i], [...lp, '-'], undefined, e, lastByKey.has(keyOf(e)) ? 'drift' : 'manifest', true);
      } else {
        visit([...dp, i], [...lp, li], e, lastByKey.get(keyOf(e)), live[li]);
      }
    });
    // Remove from the end so earlier indexes in the patch stay valid.
    for (let li = live.length - 1; li >= 0; li--) {
      const k = keyOf(live[li]);
      if (!wanted.has(k)) push('remove', [...dp, li], [...lp, li], live[li], undefined, lastByKey.has(k) ? 'manifest' : 'drift', true);
    }
  };

  const keyFor = (path: JsonPath): string | undefined => rules.keys.find((k) => matchesPattern(path, k.pattern))?.key;

  visit([], [], input.desired, input.last, input.live);
  return out;
}

function keyed(items: JsonValue[], key: string): boolean {
  const seen = new Set<string>();
  for (const e of items) {
    if (!isObject(e) || e[key] === undefined) return false;
    const k = String(e[key]);
    if (seen.has(k)) return false;
    seen.add(k);
  }
  return true;
}

/** Wraps a value at a path inside empty containers, so path-based masking applies to it. */
function nest(path: JsonPath, value: JsonValue): JsonObject {
  let cur: JsonValue = value;
  for (let i = path.length - 1; i >= 0; i--) {
    const seg = path[i];
    if (typeof seg === 'number') { const arr: JsonValue[] = []; arr[seg] = cur; cur = arr; } else cur = { [seg]: cur };
  }
  return cur as JsonObject;
}

function pick(doc: JsonValue, path: JsonPath): JsonValue {
  let cur: JsonValue = doc;
  for (const seg of path) cur = (Array.isArray(cur) ? cur[Number(seg)] : (cur as JsonObject)[String(seg)]) as JsonValue;
  return cur;
}
