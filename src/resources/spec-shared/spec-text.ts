// Scalar fields of a validated spec as text, and any spec value as a message quotes it.
import type { JsonObject, JsonValue } from '../../core/json.js';

/** A field its kind's schema admits only as a string or a number (an id, a name, a revision), as text. */
export function specText(spec: JsonObject, field: string): string {
  const value = spec[field] as JsonValue | undefined;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  throw new Error(`spec.${field} is ${value === undefined ? 'missing' : JSON.stringify(value)}; its schema admits only a string or a number`);
}

/** A value as a message shows it: a string as it is, anything else as JSON (an object never reads '[object Object]'). */
export function shownValue(value: JsonValue | undefined): string {
  if (typeof value === 'string') return value;
  return value === undefined ? 'undefined' : JSON.stringify(value);
}
