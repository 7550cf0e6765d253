// Values the service normalises compare as the service compares them: ARM answers a location
// canonical ('West Europe' -> 'westeurope') and treats names and resource ids ignoring case.
import type { JsonValue } from './json.js';
import type { ValueComparison } from './kind.js';

/** A region's canonical name: lowercase, no spaces. */
export function canonicalLocation(location: string): string {
  return location.replace(/\s+/g, '').toLowerCase();
}

/** The form a value compares in under a comparison rule; other values compare as they are. */
export function comparable(value: JsonValue | undefined, how: ValueComparison | undefined): JsonValue | undefined {
  if (typeof value !== 'string' || how === undefined) return value;
  return how === 'location' ? canonicalLocation(value) : value.toLowerCase();
}
