// Values known only after apply (a `${ref:}` to a resource not applied yet): one sentinel inside
// resolved specs, one marker in plans, never a string a user could mistake for a real value.
import { isObject, type JsonObject, type JsonValue } from '../core/json.js';

/**
 * Stands in a resolved spec for what another resource gets only once applied. Private-use
 * characters keep it from matching anything a manifest could hold; plans never show it.
 */
export const UNKNOWN_SENTINEL = '\uE000moor:known-after-apply\uE001';

/** What text output prints for an unknown value (unquoted). */
export const UNKNOWN_TEXT = '(known after apply)';

/** How a plan holds an unknown value inside a document (`after` of a create, a patch value). */
export interface UnknownMarker extends JsonObject {
  unknown: true;
}

export const UNKNOWN_MARKER: Readonly<UnknownMarker> = Object.freeze({ unknown: true });

/** Whether a resolved value is, or is built from, something known only after apply. */
export function isUnknown(value: JsonValue | undefined): boolean {
  return typeof value === 'string' && value.includes(UNKNOWN_SENTINEL);
}

/** Whether a plan value is the unknown marker. */
export function isUnknownMarker(value: unknown): value is UnknownMarker {
  return isObject(value) && value.unknown === true && Object.keys(value).length === 1;
}

/**
 * `value` with every unknown string replaced by the marker (input never modified). A value with
 * nothing unknown in it is returned as it is, not copied: a plan of 100,000 creates would
 * otherwise hold each spec twice (the resolved one and the one it shows).
 */
export function markUnknowns(value: JsonValue): JsonValue {
  if (isUnknown(value)) return { ...UNKNOWN_MARKER };
  if (!holdsUnknown(value)) return value;
  if (Array.isArray(value)) return value.map(markUnknowns);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, markUnknowns(v)]));
  return value;
}

/** Whether anything inside `value` is unknown. */
export function holdsUnknown(value: JsonValue | undefined): boolean {
  if (value === undefined) return false;
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(holdsUnknown);
  if (isObject(value)) return Object.values(value).some(holdsUnknown);
  return false;
}
