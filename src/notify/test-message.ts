// Notifications: the short message `moor notify test` sends, to prove the target, token and bot work.
import { CARD_CONTENT_TYPE } from '../providers/vendor.js';
import { CARD_SCHEMA, CARD_VERSION } from './adaptive-card.js';
import type { NotifyConnector, NotifyTarget } from './post-report.js';

const TEXT = 'moor test message: this conversation will receive moor plan, apply and drift reports.';

/** Sends the test message as a new activity and returns its id. */
export async function sendTestMessage(connector: Pick<NotifyConnector, 'sendToConversation'>, target: NotifyTarget, now: Date): Promise<string> {
  const card = {
    type: 'AdaptiveCard',
    $schema: CARD_SCHEMA,
    version: CARD_VERSION,
    body: [
      { type: 'TextBlock', text: 'moor test message', weight: 'Bolder', wrap: true },
      { type: 'TextBlock', text: TEXT, wrap: true },
    ],
  };
  const { id } = await connector.sendToConversation(target.conversationId, {
    type: 'message',
    from: { ...target.bot },
    conversation: { id: target.conversationId },
    textFormat: 'markdown',
    timestamp: now.toISOString(),
    text: TEXT,
    summary: 'moor test message',
    attachments: [{ contentType: CARD_CONTENT_TYPE, content: card }],
  });
  return id;
}
