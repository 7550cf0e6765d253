// Notifications: one run's report to the configured conversation, threaded by stack through state extras.
import type { StepOutcome } from '../core/events.js';
import type { Plan } from '../engine/plan/types.js';
import type { Session } from '../engine/session.js';
import { notifyConnector, requireNotify } from './notify-connector.js';
import { readThread, saveThread } from './notify-threads.js';
import { postReport, type NotifyConnector, type PostResult } from './post-report.js';
import { runReport, type RunKind } from './run-report.js';
import { stackIdentity } from './stack-identity.js';

export interface NotificationRequest {
  readonly run: RunKind;
  readonly plan: Plan;
  readonly outcomes?: readonly StepOutcome[];
  readonly paths: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Test seams. */
  readonly connector?: NotifyConnector;
  readonly now?: Date;
}

export interface NotificationResult extends PostResult {
  readonly conversationId: string;
  readonly stackId: string;
  /** Whether the message id was stored for the next run. */
  readonly remembered: boolean;
}

export async function sendNotification(session: Session, r: NotificationRequest): Promise<NotificationResult> {
  const target = requireNotify(session.config);
  const stack = stackIdentity({ configFile: session.config.file, paths: r.paths, cwd: r.cwd, stack: session.config.stack?.name });
  const previous = readThread(await session.backend.read(), stack.id);
  const connector = r.connector ?? notifyConnector(session.config, r.env, session.masker);
  const report = runReport(r.run, stack, r.plan, r.outcomes);
  const result = await postReport(connector, target, report, previous, r.now ?? new Date(), session.masker);
  // apply runs under the state lock; plan and drift take it only for this write.
  const remembered = result.record ? await saveThread(session.backend, stack.id, result.record, { lockHeld: r.run === 'apply', events: session.events }) : true;
  return { ...result, conversationId: target.conversationId, stackId: stack.id, remembered };
}
