// Posts a plan, apply or drift summary to the configured conversation (the connector of seed 000).
import { UserError } from '../engine/diagnostics.js';
import type { StepOutcome } from '../engine/apply/events.js';
import type { Plan } from '../engine/plan/types.js';
import type { Session } from '../engine/session.js';

export async function notifyRun(session: Session, _run: 'plan' | 'apply' | 'drift', _plan: Plan, _outcomes?: readonly StepOutcome[]): Promise<void> {
  if (!session.config.notify) throw new UserError('--notify needs a notify: section in moor.config.yaml');
  throw new UserError('notifications are not available yet');
}
