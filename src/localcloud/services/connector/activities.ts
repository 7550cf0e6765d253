// Connector activity operations: send, reply, update, delete, activity members, history, local read-back.
import { ownEntry } from '../../own-entry.js';
import type { LocalRequest, LocalResponse, ServiceContext } from '../../types.js';
import {
  CHANNEL_ID,
  connectorError,
  conversationNotFound,
  conversations,
  nextActivityId,
  NO_EDIT_PREFIX,
  serviceUrl,
  type ConversationRecord,
  type Obj,
  type StoredActivity,
} from './store.js';
import { activityProblem } from './validate.js';

export type ConversationHandler = (req: LocalRequest, ctx: ServiceContext, conversation: ConversationRecord) => LocalResponse;

/** Finds the path's conversation (404 otherwise) before the handler. */
export function inConversation(handler: ConversationHandler): (req: LocalRequest, ctx: ServiceContext) => LocalResponse {
  return (req, ctx) => {
    const conversation = ownEntry(conversations(ctx), req.params.conversationId);
    return conversation ? handler(req, ctx, conversation) : conversationNotFound(req.params.conversationId);
  };
}

function activityNotFound(id: string): LocalResponse {
  return connectorError(404, 'ActivityNotFound', `Activity '${id}' was not found in the conversation.`);
}

function notSupported(): LocalResponse {
  return connectorError(405, 'NotSupported', 'The channel does not support this operation.');
}

/** Stores an activity as the channel would: a fresh id, a timestamp, the conversation and service url. */
export function appendActivity(ctx: ServiceContext, conversation: ConversationRecord, body: Obj, replyToId?: string): StoredActivity {
  const activity: StoredActivity = {
    ...body,
    type: String(body.type),
    id: nextActivityId(conversation, ctx),
    timestamp: ctx.now().toISOString(),
    channelId: CHANNEL_ID,
    serviceUrl: serviceUrl(ctx),
    conversation: { id: conversation.id, isGroup: conversation.isGroup },
    ...(replyToId ? { replyToId } : {}),
  };
  conversation.activities.push(activity);
  return activity;
}

function invalid(body: unknown): LocalResponse | undefined {
  const problem = activityProblem(body);
  return problem ? connectorError(400, problem.code, problem.message) : undefined;
}

export const sendToConversation = inConversation((req, ctx, conversation) => {
  const refused = invalid(req.body);
  if (refused) return refused;
  const activity = appendActivity(ctx, conversation, req.body as Obj);
  ctx.save();
  return { status: 201, body: { id: activity.id } };
});

/** Threaded reply: the new activity's replyToId is the path's activity. */
export const replyToActivity = inConversation((req, ctx, conversation) => {
  const parentId = req.params.activityId;
  if (!conversation.activities.some((a) => a.id === parentId)) return activityNotFound(parentId);
  const refused = invalid(req.body);
  if (refused) return refused;
  const activity = appendActivity(ctx, conversation, req.body as Obj, parentId);
  ctx.save();
  return { status: 201, body: { id: activity.id } };
});

type Editable = { readonly activity: StoredActivity } | { readonly response: LocalResponse };

function editable(conversation: ConversationRecord, activityId: string): Editable {
  if (conversation.id.startsWith(NO_EDIT_PREFIX)) return { response: notSupported() };
  const activity = conversation.activities.find((a) => a.id === activityId);
  return activity ? { activity } : { response: activityNotFound(activityId) };
}

/** Replaces the activity's content; the earlier version goes to its (local-only) history. */
export const updateActivity = inConversation((req, ctx, conversation) => {
  const target = editable(conversation, req.params.activityId);
  if ('response' in target) return target.response;
  const found = target.activity;
  const refused = invalid(req.body);
  if (refused) return refused;
  const { history = [], ...previous } = found;
  const { id: _id, ...changes } = req.body as Obj; // the id is the path's
  const updated: StoredActivity = {
    ...changes,
    type: String(changes.type),
    id: found.id,
    timestamp: found.timestamp,
    channelId: CHANNEL_ID,
    serviceUrl: serviceUrl(ctx),
    conversation: previous.conversation,
    ...(previous.replyToId ? { replyToId: previous.replyToId } : {}),
    lastModified: ctx.now().toISOString(),
    history: [...history, { ...previous, replacedAt: ctx.now().toISOString() }],
  };
  conversation.activities[conversation.activities.indexOf(found)] = updated;
  ctx.save();
  return { status: 200, body: { id: updated.id } };
});

export const deleteActivity = inConversation((req, ctx, conversation) => {
  const target = editable(conversation, req.params.activityId);
  if ('response' in target) return target.response;
  conversation.activities.splice(conversation.activities.indexOf(target.activity), 1);
  ctx.save();
  return { status: 200 };
});

export const getActivityMembers = inConversation((req, _ctx, conversation) => {
  if (!conversation.activities.some((a) => a.id === req.params.activityId)) return activityNotFound(req.params.activityId);
  return { status: 200, body: conversation.members };
});

/** Uploads past activities (a Transcript) so clients can render them. */
export const sendHistory = inConversation((req, ctx, conversation) => {
  const transcript = req.body as Obj | undefined;
  if (!transcript || !Array.isArray(transcript.activities))
    return connectorError(400, 'BadArgument', 'The request body must be a Transcript: {"activities": [...]}.');
  for (const activity of transcript.activities) {
    const refused = invalid(activity);
    if (refused) return refused;
  }
  let last = '';
  for (const activity of transcript.activities as Obj[]) last = appendActivity(ctx, conversation, { ...activity, historyDisclosed: true }).id;
  ctx.save();
  return { status: 201, body: { id: last } };
});

/** Local-only, read-only: every activity of the conversation in order, with replyToId and update history. */
export const listActivities = inConversation((_req, _ctx, conversation) => ({
  status: 200,
  body: { activities: conversation.activities },
}));
