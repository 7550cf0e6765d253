// --notify: the operation decides when a summary is posted; who posts it (the conversation
// connector) is handed in by the caller, so the engine loads no notification code.
import { UserError } from '../../core/diagnostics.js';
import type { StepOutcome } from '../../core/events.js';
import type { Plan } from '../plan/types.js';
import type { Session } from '../session.js';

/** Posts a run's summary (and says so on the run's stream). */
export type Notifier = (run: 'plan' | 'apply' | 'drift', plan: Plan, outcomes?: readonly StepOutcome[]) => Promise<void>;

/** Refuses --notify without a notify: section before any work is done. */
export function requireNotifyTarget(session: Session, notifier: Notifier | undefined): void {
  if (notifier && !session.config.notify) {
    throw new UserError('--notify needs a notify: section in moor.config.yaml (serviceUrl, conversationId, bot, tokenEnv); see docs/notifications.md');
  }
}
