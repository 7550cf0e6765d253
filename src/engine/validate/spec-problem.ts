// A problem found in a spec, before it is tied to a file position.
import type { JsonPath } from '../../core/json.js';
import type { Severity } from '../../core/diagnostics.js';

export interface SpecProblem {
  /** Relative to the document root (starts with 'spec' for spec problems). */
  readonly path: JsonPath;
  readonly at: 'key' | 'value';
  readonly message: string;
  readonly severity: Severity;
  readonly code: string;
  /** The placeholder the problem is about, as written: the diagnostic points at it inside the value. */
  readonly placeholder?: string;
}
