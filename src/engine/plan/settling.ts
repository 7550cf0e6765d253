// A resource whose earlier write the service still carries out (a group still provisioning after an
// interrupted apply), or ended failed: nothing to send, but apply follows it through the kind to its
// end before what depends on it starts, records how it ended, or fails it and skips its dependents.
import { diagnosed, type Diagnosed } from '../../core/diagnosed.js';
import type { SettleStep } from './steps.js';
import { reasonFields, type Reason } from './reasons.js';

/** The step that waits: its reason and a warning say so (plan text and JSON show a no-op). */
export function settlingStep(base: Omit<SettleStep, 'intent' | 'change'>): Diagnosed<SettleStep> {
  const { manifest, observed } = base;
  const inProgress = observed.inProgress ?? observed.failed ?? 'its last write has not ended';
  const reason: Reason = observed.inProgress
    ? { code: 'in-progress', text: `${observed.inProgress}: apply waits for it to finish before what depends on it starts` }
    : {
        code: 'write-failed',
        text: `${inProgress}: apply reports it failed and skips what depends on it; change the manifest or apply --replace ${manifest.address} to write it again`,
      };
  const step: SettleStep = {
    ...base,
    intent: 'settle',
    change: {
      address: manifest.address,
      kind: manifest.kind,
      action: 'no-op',
      fields: [],
      patch: [],
      drift: false,
      destructive: false,
      ...reasonFields(reason),
      inProgress,
    },
  };
  return diagnosed(step, [{ severity: 'warning', address: manifest.address, message: reason.text, code: 'in-progress' }]);
}
