// A resource whose earlier write the service still carries out (a group still provisioning after an
// interrupted apply), or ended failed: nothing to send, but apply follows it through the kind to its
// end before what depends on it starts, records how it ended, or fails it and skips its dependents.
import type { Diagnostic } from '../../core/diagnostics.js';
import type { Observed } from '../../core/kind.js';
import type { Manifest } from '../manifest.js';
import type { PlannedStep } from './steps.js';

/** The no-op step that waits: its reason and a warning say so (plan text and JSON). */
export function settlingStep(base: Omit<PlannedStep, 'change' | 'changedPaths'>, manifest: Manifest, observed: Observed, diagnostics: Diagnostic[]): PlannedStep {
  const inProgress = observed.inProgress ?? observed.failed ?? 'its last write has not ended';
  const reason = observed.inProgress
    ? `${observed.inProgress}: apply waits for it to finish before what depends on it starts`
    : `${inProgress}: apply reports it failed and skips what depends on it; change the manifest or apply --replace ${manifest.address} to write it again`;
  diagnostics.push({ severity: 'warning', address: manifest.address, message: reason, code: 'in-progress' });
  return {
    ...base,
    changedPaths: [],
    change: { address: manifest.address, kind: manifest.kind, action: 'no-op', fields: [], patch: [], drift: false, destructive: false, reason, inProgress },
  };
}
