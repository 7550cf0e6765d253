// Notifications: posts a run report to the conversation — first a new message, later an update or a
// reply in its thread, a new message where the channel cannot edit (405), an attachment when too long.
import { createHash } from 'node:crypto';
import type { ConnectorBody, ConnectorClient } from '../providers/connector.js';
import { ServiceError } from '../providers/service-error.js';
import { CARD_CONTENT_TYPE } from '../providers/vendor.js';
import type { JsonObject } from '../core/json.js';
import type { Masker } from '../core/masker.js';
import { adaptiveCard } from './adaptive-card.js';
import type { ThreadRecord } from './notify-threads.js';
import { reportMarkdown, shortMarkdown } from './report-markdown.js';
import type { RunReport } from './run-report.js';

/** Beyond these the report goes up as an attachment and the message carries only the summary. */
export const MAX_TEXT_CHARS = 20_000;
export const MAX_CARD_BYTES = 25_000;

/** The connector operations notifications use (a test double is a struct of these). */
export type NotifyConnector = Pick<ConnectorClient, 'sendToConversation' | 'updateActivity' | 'replyToActivity' | 'uploadAttachment'>;

export interface NotifyTarget {
  /** Base address of the connector, for the link to an uploaded attachment. */
  readonly serviceUrl: string;
  readonly conversationId: string;
  readonly bot: { readonly id: string; readonly name?: string };
}

export type Delivery =
  | { readonly kind: 'send' }
  | { readonly kind: 'update'; readonly activityId: string }
  | { readonly kind: 'reply'; readonly activityId: string }
  | { readonly kind: 'unchanged'; readonly activityId: string };

/**
 * What to do with a report: the first message of a stack is sent; plan and drift then edit that
 * standing message (only when its content changed); apply replies in its thread. An apply's report
 * is never edited: when apply posted the standing message, plan or drift posts one of its own.
 */
export function chooseDelivery(report: RunReport, previous: ThreadRecord | undefined, conversationId: string, contentHash: string): Delivery {
  if (previous?.conversationId !== conversationId) return { kind: 'send' };
  if (report.run === 'apply') return { kind: 'reply', activityId: previous.activityId };
  if (previous.run === 'apply') return { kind: 'send' };
  if (previous.contentHash === contentHash) return { kind: 'unchanged', activityId: previous.activityId };
  return { kind: 'update', activityId: previous.activityId };
}

export interface PostResult {
  /** 'sent', 'updated', 'replied', 'unchanged', or 'sent (the channel cannot edit messages)'. */
  readonly how: string;
  readonly activityId: string;
  /** Set when the report went up as an attachment. */
  readonly attachmentId?: string;
  /** What to remember for the next run (undefined: keep what was stored). */
  readonly record?: ThreadRecord;
}

/** `masker`: the run's; a chat message is output too, so secrets echoed in service messages are masked as on stderr. */
export async function postReport(
  connector: NotifyConnector,
  target: NotifyTarget,
  unmasked: RunReport,
  previous: ThreadRecord | undefined,
  now: Date,
  masker?: Masker,
): Promise<PostResult> {
  const report = masker ? masker.maskDeep(unmasked) : unmasked;
  const text = reportMarkdown(report);
  const card = adaptiveCard(report);
  const contentHash = createHash('sha256').update(text).update(JSON.stringify(card)).digest('hex');
  const delivery = chooseDelivery(report, previous, target.conversationId, contentHash);
  if (delivery.kind === 'unchanged') return { how: 'unchanged', activityId: delivery.activityId };

  const content = await messageContent(connector, target, report, text, card);
  const activity = (extra: JsonObject = {}): ConnectorBody => ({
    type: 'message',
    from: { ...target.bot },
    conversation: { id: target.conversationId },
    textFormat: 'markdown',
    timestamp: now.toISOString(),
    text: content.text,
    summary: `${report.title}: ${report.summaryLine}`,
    attachments: content.attachments,
    ...extra,
  });
  const remember = (activityId: string): ThreadRecord => ({
    conversationId: target.conversationId,
    activityId,
    contentHash,
    run: report.run,
    updatedAt: now.toISOString(),
  });
  const conv = target.conversationId;
  const sendNew = async (how: string): Promise<PostResult> => {
    const { id } = await connector.sendToConversation(conv, activity());
    return { how, activityId: id, attachmentId: content.attachmentId, record: remember(id) };
  };

  if (delivery.kind === 'send') return sendNew('sent');
  try {
    if (delivery.kind === 'update') {
      await connector.updateActivity(conv, delivery.activityId, activity({ id: delivery.activityId }));
      return { how: 'updated', activityId: delivery.activityId, attachmentId: content.attachmentId, record: remember(delivery.activityId) };
    }
    const { id } = await connector.replyToActivity(conv, delivery.activityId, activity({ replyToId: delivery.activityId }));
    // The standing message is unchanged by a reply: keep its id and content hash.
    return { how: 'replied', activityId: id, attachmentId: content.attachmentId, record: previous && { ...previous, updatedAt: now.toISOString() } };
  } catch (err) {
    if (err instanceof ServiceError && err.status === 405) return sendNew('sent (the channel cannot edit or thread messages: 405)');
    if (err instanceof ServiceError && err.status === 404) return sendNew('sent (the earlier message is gone: 404)');
    throw err;
  }
}

interface MessageContent {
  readonly text: string;
  readonly attachments: JsonObject[];
  readonly attachmentId?: string;
}

/** The full report inline, or — when too long for one message — uploaded, with a summary that links to it. */
async function messageContent(connector: NotifyConnector, target: NotifyTarget, report: RunReport, text: string, card: JsonObject): Promise<MessageContent> {
  const cardBytes = Buffer.byteLength(JSON.stringify(card), 'utf8');
  if (text.length <= MAX_TEXT_CHARS && cardBytes <= MAX_CARD_BYTES) {
    return { text, attachments: [{ contentType: CARD_CONTENT_TYPE, content: card }] };
  }
  const name = `moor-${report.run}-${report.stack.id}.md`;
  const { id } = await connector.uploadAttachment(target.conversationId, {
    name,
    type: 'text/markdown',
    originalBase64: Buffer.from(text, 'utf8').toString('base64'),
  });
  const url = `${target.serviceUrl.replace(/\/+$/, '')}/v3/attachments/${encodeURIComponent(id)}/views/original`;
  const full = { name, url };
  return {
    text: shortMarkdown(report, full),
    attachments: [
      { contentType: 'text/markdown', contentUrl: url, name },
      { contentType: CARD_CONTENT_TYPE, content: adaptiveCard(report, full) },
    ],
    attachmentId: id,
  };
}
