// Stored conversations, activities and attachments of the local conversation connector, and its error shape.
import type { LocalResponse, ServiceContext } from '../../types.js';

/** Channel id the local connector stamps on activities. */
export const CHANNEL_ID = 'localcloud';
/** Conversations whose id starts with this do not allow editing or deleting activities (405). */
export const NO_EDIT_PREFIX = '19:noedit';

export type Obj = Record<string, unknown>;

export interface ChannelAccount {
  id: string;
  name?: string;
  aadObjectId?: string;
  role?: string;
}

export interface StoredActivity extends Obj {
  id: string;
  type: string;
  timestamp: string;
  /** Earlier versions, oldest first, each with the time it was replaced (local-only view). */
  history?: Obj[];
}

export interface ConversationRecord {
  id: string;
  isGroup: boolean;
  topicName?: string;
  tenantId?: string;
  bot?: ChannelAccount;
  channelData?: unknown;
  members: ChannelAccount[];
  activities: StoredActivity[];
  /** Last activity id handed out (ids are increasing millisecond numbers, as on real channels). */
  lastActivityNumber: number;
}

export interface AttachmentRecord {
  id: string;
  conversationId: string;
  name?: string;
  type: string;
  originalBase64: string;
  thumbnailBase64?: string;
}

export function conversations(ctx: ServiceContext): Record<string, ConversationRecord> {
  ctx.data.conversations ??= {};
  return ctx.data.conversations as Record<string, ConversationRecord>;
}

export function attachments(ctx: ServiceContext): Record<string, AttachmentRecord> {
  ctx.data.attachments ??= {};
  return ctx.data.attachments as Record<string, AttachmentRecord>;
}

export function connectorErrorBody(status: number, code: string, message: string): unknown {
  return { error: { code, message, innerHttpError: { statusCode: status, body: { code, message } } } };
}

export function connectorError(status: number, code: string, message: string): LocalResponse {
  return { status, body: connectorErrorBody(status, code, message) };
}

export function conversationNotFound(id: string): LocalResponse {
  return connectorError(404, 'ConversationNotFound', `Conversation '${id}' was not found.`);
}

/** The next activity id of a conversation: the clock in ms, kept strictly increasing. */
export function nextActivityId(conversation: ConversationRecord, ctx: ServiceContext): string {
  conversation.lastActivityNumber = Math.max(ctx.now().getTime(), conversation.lastActivityNumber + 1);
  return String(conversation.lastActivityNumber);
}

export function serviceUrl(ctx: ServiceContext): string {
  return `${ctx.baseUrl}/`;
}

export function encodeOffset(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

/** The offset of a continuation token, 0 for none, undefined for a token that is not ours. */
export function decodeOffset(token: string | null): number | undefined {
  if (token === null || token === '') return 0;
  try {
    const o: unknown = (JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Obj).o;
    return Number.isInteger(o) && (o as number) >= 0 ? (o as number) : undefined;
  } catch {
    return undefined;
  }
}

/** Demo data: a conversation that supports everything (with members enough to page) and one that cannot edit. */
export function seedConnector(data: Record<string, unknown>): void {
  const bot: ChannelAccount = { id: '28:moor-bot', name: 'moor' };
  const people = ['Avery Quinn', 'Blake Rivera', 'Casey Morgan', 'Devon Hayes', 'Emery Brooks', 'Finley Park', 'Harper Lane'];
  const members: ChannelAccount[] = people.map((name, i) => ({ id: `29:user-${i + 1}`, name }));
  // Each conversation its own activities array: a shared one would show a message in both.
  const base = { isGroup: true, bot, lastActivityNumber: 0 };
  data.conversations = {
    '19:ops-alerts': { ...base, activities: [], id: '19:ops-alerts', topicName: 'ops-alerts', members },
    '19:noedit-alerts': { ...base, activities: [], id: '19:noedit-alerts', topicName: 'noedit-alerts', members: members.slice(0, 2) },
  };
  data.attachments = {};
}
