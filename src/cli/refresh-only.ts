// apply --refresh-only: records what drifted into state; nothing live is changed.
import type { Session } from '../engine/session.js';
import type { PreparedPlan } from '../engine/workflow.js';
import { StateRecorder } from '../engine/state/recorder.js';
import { acceptDrift, refreshSummary } from '../engine/apply/accept-drift.js';

export async function refreshOnly(session: Session, prepared: PreparedPlan): Promise<number> {
  const recorder = new StateRecorder(session.backend, prepared.state);
  const outcomes = await acceptDrift(prepared.plan, prepared.steps, recorder);
  process.stdout.write('\n' + refreshSummary(outcomes) + '\n');
  return outcomes.some((o) => o.status !== 'done') ? 1 : 0;
}
