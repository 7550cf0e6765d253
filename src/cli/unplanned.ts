// A plan or drift run that failed before it could plan (invalid manifests, unreadable state...)
// still has a report: an empty plan carrying the failure, so a pull-request comment shows it.
import type { Diagnostic, UserError } from '../core/diagnostics.js';
import { summarize, type Plan } from '../engine/plan/types.js';

/** An empty plan carrying the failure's diagnostics (its message as one more when it has none). */
export function unplanned(err: UserError): Plan {
  const diagnostics: Diagnostic[] = [...err.diagnostics];
  if (!diagnostics.some((d) => d.severity === 'error')) diagnostics.push({ severity: 'error', message: err.message });
  return { format: 'moor-plan/1', serial: 0, changes: [], summary: summarize([]), diagnostics };
}
