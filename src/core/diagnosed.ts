// A value together with the diagnostics found while making it (Terraform returns `(value, diags)`):
// a function that may warn or fail returns both instead of pushing into an array its caller passed.
import type { Diagnostic } from './diagnostics.js';

export interface Diagnosed<T> {
  readonly value: T;
  readonly diagnostics: readonly Diagnostic[];
}

/** Shared by every result without diagnostics (loads make one per document). */
const NONE: readonly Diagnostic[] = Object.freeze([]);

export function diagnosed<T>(value: T, diagnostics: readonly Diagnostic[] = NONE): Diagnosed<T> {
  return { value, diagnostics };
}

/** The values of several results, in order, with all their diagnostics in the same order. */
export function mergeDiagnosed<T>(results: readonly Diagnosed<T>[]): Diagnosed<T[]> {
  return { value: results.map((r) => r.value), diagnostics: results.flatMap((r) => r.diagnostics) };
}
