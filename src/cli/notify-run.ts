// --notify: posts a plan, apply or drift summary to the configured conversation (the conversation
// connector), when the operation says; loaded only for a run that notifies.
import type { Notifier } from '../engine/operations/notifier.js';
import type { Session } from '../engine/session.js';
import type { IoHost } from './io-host.js';

/**
 * Sends (or updates, or replies in the thread of) this stack's message and says so on stderr.
 * `paths` are the run's manifest paths, part of the stack identity; without them the stack is the
 * current folder. A failed post is a ServiceError (code and X-Correlating-OperationId included).
 */
export function notifierOf(io: IoHost, session: Session, paths: readonly string[] = []): Notifier {
  return async (run, plan, outcomes) => {
    const { sendNotification } = await import('../notify/send-notification.js');
    const { notifyFailure } = await import('../notify/notify-error.js');
    const result = await sendNotification(session, { run, plan, outcomes, paths, cwd: io.cwd, env: io.env }).catch((err: unknown) => {
      throw notifyFailure(err, `posting the ${run} report to conversation ${session.config.notify?.conversationId}`);
    });
    const attached = result.attachmentId ? `; the full report went up as attachment ${result.attachmentId}` : '';
    const what =
      result.how === 'unchanged'
        ? `not posted: message ${result.activityId} already shows this ${run} report`
        : `${result.how}, activity id ${result.activityId}`;
    session.events({ type: 'notice', message: `moor: notified conversation ${result.conversationId} (${what}${attached})` });
  };
}
