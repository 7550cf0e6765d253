// What a create shows: every field it sets (named paths, secrets masked, unknowns marked), and
// what an update sends again unseen: write-only fields (secrets) the service never returns.
import type { ChangeCause, FieldChange } from '../plan/types.js';
import { fieldOf, isObject, toPointer, valueText, type JsonObject, type JsonPath, type JsonValue } from '../../core/json.js';
import { isSensitivePath, maskSensitive, SENSITIVE_MASK } from '../secrets.js';
import { isUnknown, markUnknowns } from '../unknown.js';
import type { DiffRules } from '../../core/kind.js';
import { compileRules, type CompiledRules } from './compiled-rules.js';
import { namedPath, type NamedSegment } from './named-path.js';
import { StringPool } from '../../core/string-pool.js';

/** The field paths of creates: the same few per kind, whatever the number of resources. */
const fieldPaths = new StringPool();

interface Leaf {
  readonly dp: JsonPath;
  readonly np: readonly NamedSegment[];
  readonly value: JsonValue;
}

/**
 * The leaves of a spec: scalars, unnamed arrays and empty objects as one value each; named
 * arrays by element; write-only subtrees (secrets) as one value.
 */
function leaves(rules: CompiledRules, value: JsonValue, dp: JsonPath = [], np: readonly NamedSegment[] = [], namedBy?: string): Leaf[] {
  if (dp.length > 0 && rules.isWriteOnly(dp)) return [{ dp, np, value }];
  if (isObject(value) && Object.keys(value).length > 0) {
    // An element's key field is already in its path ('[name=web]'): not listed again.
    const entries = Object.entries(value).filter(([k]) => k !== namedBy);
    if (entries.length === 0) return [{ dp, np, value }];
    return entries.flatMap(([k, v]) => leaves(rules, v, [...dp, k], [...np, k]));
  }
  const key = rules.keyOf(dp);
  if (key && Array.isArray(value) && value.length > 0 && value.every((e) => isObject(e) && fieldOf(e, key) !== undefined)) {
    return value.flatMap((e, i) => leaves(rules, e, [...dp, i], [...np, { key, value: valueText((e as JsonObject)[key]) }], key));
  }
  return [{ dp, np, value }];
}

/** Every field a create sets, as `add` changes (cause drift when it re-creates what vanished). */
export function createFields(desired: JsonObject, diff: DiffRules, sensitive: readonly string[], cause: ChangeCause): FieldChange[] {
  return leaves(compileRules(diff), desired).map(({ dp, np, value }) => {
    const secret = isSensitivePath(dp, sensitive);
    const unknown = !secret && isUnknown(value);
    return {
      path: fieldPaths.intern(namedPath(np)),
      pointer: fieldPaths.intern(toPointer(dp)),
      op: 'add',
      ...(unknown ? { unknown: true } : { after: secret ? SENSITIVE_MASK : markUnknowns(value) }),
      cause,
      sensitive: secret,
      forcesReplace: false,
    };
  });
}

/** The desired spec as plans show it: secrets masked, unknowns as `{"unknown": true}`. */
export function shownSpec(desired: JsonObject, sensitive: readonly string[]): JsonValue {
  return markUnknowns(maskSensitive(desired, sensitive));
}

/**
 * Named paths of write-only fields an update sends again whatever their value (they sit in a
 * subtree the write sends whole), other than those already changed.
 */
export function resentFields(desired: JsonObject, diff: DiffRules, changed: readonly FieldChange[]): string[] {
  const rules = compileRules(diff);
  const shown = new Set(changed.map((f) => f.path));
  return leaves(rules, desired)
    .filter((l) => rules.isWriteOnly(l.dp) && rules.isSentWhole(l.dp))
    .map((l) => namedPath(l.np))
    .filter((p) => !shown.has(p));
}
