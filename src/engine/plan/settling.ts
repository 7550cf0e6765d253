// A resource the service is still carrying out an earlier write of (a group still provisioning
// after an interrupted apply): nothing to send, but apply follows it to its end before what
// depends on it starts, and records how it ended.
import type { Diagnostic } from '../../core/diagnostics.js';
import type { Manifest } from '../manifest.js';
import type { PlannedStep } from './steps.js';

/** The no-op step that waits: its reason and a warning say so (plan text and JSON). */
export function settlingStep(base: Omit<PlannedStep, 'change' | 'changedPaths'>, manifest: Manifest, inProgress: string, diagnostics: Diagnostic[]): PlannedStep {
  const reason = `${inProgress}: apply waits for it to finish before what depends on it starts`;
  diagnostics.push({ severity: 'warning', address: manifest.address, message: reason, code: 'in-progress' });
  return {
    ...base,
    changedPaths: [],
    change: { address: manifest.address, kind: manifest.kind, action: 'no-op', fields: [], patch: [], drift: false, destructive: false, reason, inProgress },
  };
}
