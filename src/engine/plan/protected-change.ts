// A destructive change to a protected resource is refused before anything is sent, whether the
// planner chose it or --replace forced it: one check, one wording.
import type { Diagnostic } from '../../core/diagnostics.js';
import type { PlannedStep } from './steps.js';

/** The error for a step that would replace or delete a resource whose manifest sets metadata.protect; else undefined. */
export function protectedChangeError(s: PlannedStep): Diagnostic | undefined {
  if (!s.manifest?.protect || (s.change.action !== 'replace' && s.change.action !== 'delete')) return undefined;
  return { severity: 'error', address: s.change.address, location: s.manifest.source.locate(['metadata', 'protect']), message: `${s.change.address} is protected (metadata.protect) and would be ${s.change.action === 'replace' ? 'replaced' : 'deleted'}: ${s.change.reason ?? ''}`.trim() };
}
