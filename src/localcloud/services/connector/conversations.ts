// Connector conversation operations: create, list (paged), members, paged members, get and delete a member.
import { randomBytes } from 'node:crypto';
import type { LocalRequest, LocalResponse, ServiceContext } from '../../types.js';
import { appendActivity, inConversation } from './activities.js';
import { connectorError, conversations, decodeOffset, encodeOffset, serviceUrl, type ChannelAccount, type ConversationRecord, type Obj } from './store.js';
import { accountProblem, activityProblem } from './validate.js';

/** Conversations per page of Get conversations. */
export const CONVERSATIONS_PAGE = 10;
export const DEFAULT_MEMBERS_PAGE = 200;
export const MAX_MEMBERS_PAGE = 500;

function badArgument(message: string): LocalResponse {
  return connectorError(400, 'BadArgument', message);
}

/** Why create-conversation parameters are refused, or undefined. */
function parametersProblem(body: unknown): LocalResponse | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return badArgument('The request body must be ConversationParameters.');
  const p = body as Obj;
  if (p.isGroup !== undefined && typeof p.isGroup !== 'boolean') return badArgument('isGroup must be a boolean.');
  const members = p.members ?? [];
  if (!Array.isArray(members)) return badArgument('members must be an array of ChannelAccount.');
  if (p.isGroup !== true && members.length !== 1) return badArgument('A conversation that is not a group needs exactly one member.');
  const accountIssue =
    members.map((m, i) => accountProblem(m, `members[${i}]`)).find((x) => x) ?? (p.bot === undefined ? undefined : accountProblem(p.bot, 'bot'));
  if (accountIssue) return connectorError(400, accountIssue.code, accountIssue.message);
  const activityIssue = p.activity === undefined ? undefined : activityProblem(p.activity);
  return activityIssue ? connectorError(400, activityIssue.code, activityIssue.message) : undefined;
}

/** A one-to-one conversation of the same bot and user is reused, as channels do. */
function existingOneToOne(ctx: ServiceContext, bot: ChannelAccount | undefined, member: ChannelAccount): ConversationRecord | undefined {
  return Object.values(conversations(ctx)).find((c) => !c.isGroup && c.bot?.id === bot?.id && c.members[0]?.id === member.id);
}

export function createConversation(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const refused = parametersProblem(req.body);
  if (refused) return refused;
  const p = req.body as Obj;
  const isGroup = p.isGroup === true;
  const members = (p.members as ChannelAccount[] | undefined) ?? [];
  const bot = p.bot as ChannelAccount | undefined;
  let conversation = isGroup ? undefined : existingOneToOne(ctx, bot, members[0]);
  if (!conversation) {
    const id = isGroup ? `19:${randomBytes(16).toString('hex')}@thread.local` : `a:${randomBytes(16).toString('base64url')}`;
    conversation = { id, isGroup, members, activities: [], lastActivityNumber: 0, ...(bot ? { bot } : {}) };
    if (typeof p.topicName === 'string') conversation.topicName = p.topicName;
    if (typeof p.tenantId === 'string') conversation.tenantId = p.tenantId;
    if (p.channelData !== undefined) conversation.channelData = p.channelData;
    conversations(ctx)[id] = conversation;
  }
  const activity = p.activity === undefined ? undefined : appendActivity(ctx, conversation, p.activity as Obj);
  ctx.save();
  return { status: 201, body: { id: conversation.id, ...(activity ? { activityId: activity.id } : {}), serviceUrl: serviceUrl(ctx) } };
}

export function getConversations(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const offset = decodeOffset(req.url.searchParams.get('continuationToken'));
  if (offset === undefined) return badArgument('The continuationToken is not valid.');
  const all = Object.values(conversations(ctx));
  const page = all.slice(offset, offset + CONVERSATIONS_PAGE).map((c) => ({ id: c.id, members: c.members }));
  const next = offset + CONVERSATIONS_PAGE;
  return { status: 200, body: { conversations: page, ...(next < all.length ? { continuationToken: encodeOffset(next) } : {}) } };
}

export const getConversationMembers = inConversation((_req, _ctx, conversation) => ({ status: 200, body: conversation.members }));

export const getPagedMembers = inConversation((req, _ctx, conversation) => {
  const q = req.url.searchParams;
  const size = q.get('pageSize') === null ? DEFAULT_MEMBERS_PAGE : Number(q.get('pageSize'));
  if (!Number.isInteger(size) || size < 1 || size > MAX_MEMBERS_PAGE) return badArgument(`pageSize must be an integer from 1 to ${MAX_MEMBERS_PAGE}.`);
  const offset = decodeOffset(q.get('continuationToken'));
  if (offset === undefined) return badArgument('The continuationToken is not valid.');
  const members = conversation.members.slice(offset, offset + size);
  const next = offset + size;
  return { status: 200, body: { members, ...(next < conversation.members.length ? { continuationToken: encodeOffset(next) } : {}) } };
});

function memberNotFound(id: string): LocalResponse {
  return connectorError(404, 'MemberNotFound', `Member '${id}' is not a member of the conversation.`);
}

export const getConversationMember = inConversation((req, _ctx, conversation) => {
  const member = conversation.members.find((m) => m.id === req.params.memberId);
  return member ? { status: 200, body: member } : memberNotFound(req.params.memberId);
});

/** Removes a member; removing the last one deletes the conversation. */
export const deleteConversationMember = inConversation((req, ctx, conversation) => {
  const index = conversation.members.findIndex((m) => m.id === req.params.memberId);
  if (index < 0) return memberNotFound(req.params.memberId);
  conversation.members.splice(index, 1);
  if (conversation.members.length === 0) Reflect.deleteProperty(conversations(ctx), conversation.id); // the id of a stored conversation
  ctx.save();
  return { status: 200 };
});
