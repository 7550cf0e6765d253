// How a field's value is shown in plans: JSON-ish, strings quoted, long values cut, secrets masked.
import { lineText } from '../../core/foreign-text.js';
import { SENSITIVE_MASK } from '../secrets.js';
import { isUnknownMarker, UNKNOWN_SENTINEL, UNKNOWN_TEXT } from '../unknown.js';

/** Stands for an unknown inside a JSON rendering until it is printed unquoted. */
const UNKNOWN_PLACEHOLDER = UNKNOWN_SENTINEL;
import type { JsonValue } from '../../core/json.js';
import type { FieldChange } from '../plan/types.js';

/** Longest value shown in full; longer ones are cut with an ellipsis and their length noted. */
export const MAX_VALUE_CHARS = 60;

/** A value as one line of text: JSON, with long values cut so a plan stays readable; unknowns unquoted. */
export function formatValue(value: JsonValue | undefined, max = MAX_VALUE_CHARS): string {
  if (value === undefined) return '(none)';
  if (isUnknownMarker(value)) return UNKNOWN_TEXT;
  const text = JSON.stringify(value, (_k, v: unknown) => (isUnknownMarker(v) ? UNKNOWN_PLACEHOLDER : v))
    .split(JSON.stringify(UNKNOWN_PLACEHOLDER))
    .join(UNKNOWN_TEXT);
  if (text.length <= max) return lineText(text);
  const cut = lineText(text.slice(0, max - 1));
  // Keep a cut string visibly a string: close its quote after the ellipsis.
  const shown = typeof value === 'string' ? `${cut}…"` : `${cut}…`;
  return `${shown} (${text.length} chars)`;
}

/** One side of a field change, masked when the field is sensitive whatever the plan holds; an unknown unquoted. */
export function fieldValue(field: FieldChange, side: 'before' | 'after'): string {
  if (field.sensitive) return SENSITIVE_MASK;
  if (side === 'after' && field.unknown) return UNKNOWN_TEXT;
  return formatValue(field[side]);
}

/** 'manifest changed' or 'drifted'; a removal says so: '(drifted) will be removed'. */
export function causeLabel(field: FieldChange): string {
  return field.cause === 'drift' ? 'drifted' : 'manifest changed';
}

/** A removal in plan will be made by this apply; drift removes nothing, the next apply would. */
export function removalNote(mode: 'plan' | 'drift'): string {
  return mode === 'drift' ? 'the next apply will remove it' : 'will be removed';
}

/** What a write-only field an update sends again is labelled with. */
export const RESENT_LABEL = '(sensitive, written on every update)';
