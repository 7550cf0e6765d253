// Local conversation connector: every operation, per-conversation throttling, correlation header.
import { ownEntry } from '../../own-entry.js';
import type { Handler, LocalService, Route, ServiceContext } from '../../types.js';
import { deleteActivity, getActivityMembers, listActivities, replyToActivity, sendHistory, sendToConversation, updateActivity } from './activities.js';
import { getAttachmentInfo, getAttachmentView, isPresigned, uploadAttachment } from './attachments.js';
import {
  createConversation,
  deleteConversationMember,
  getConversationMember,
  getConversationMembers,
  getConversations,
  getPagedMembers,
} from './conversations.js';
import { connectorError, connectorErrorBody, seedConnector } from './store.js';

/** Operations one conversation takes per second, and per hour; more answer 429. */
export const OPERATIONS_PER_SECOND = 7;
export const OPERATIONS_PER_HOUR = 1800;
const HOUR_MS = 3_600_000;

/** Seconds to wait, or 0 when the conversation may take this operation now (it is counted). */
function admit(ctx: ServiceContext, conversationId: string): number {
  ctx.data.throttle ??= {};
  const log = ctx.data.throttle as Record<string, number[]>;
  const now = ctx.now().getTime();
  const lastHour = (ownEntry(log, conversationId) ?? []).filter((t) => t > now - HOUR_MS);
  log[conversationId] = lastHour;
  if (lastHour.length >= OPERATIONS_PER_HOUR) return Math.max(1, Math.ceil((lastHour[0] + HOUR_MS - now) / 1000));
  if (lastHour.filter((t) => t > now - 1000).length >= OPERATIONS_PER_SECOND) return 1;
  lastHour.push(now);
  return 0;
}

/** Applies the per-conversation rate limit before the handler. */
export function throttled(handler: Handler): Handler {
  return (req, ctx) => {
    const wait = admit(ctx, req.params.conversationId);
    if (wait === 0) return handler(req, ctx);
    const message = `Too many operations on this conversation: at most ${OPERATIONS_PER_SECOND} per second and ${OPERATIONS_PER_HOUR} per hour.`;
    return { ...connectorError(429, 'TooManyRequests', message), headers: { 'retry-after': String(wait) } };
  };
}

const C = '/v3/conversations/:conversationId';

/**
 * The attachment view route: the thumbnail's redirect target (a pre-signed URL) is served
 * without the token, because SDK clients drop Authorization when they follow a redirect.
 */
const attachmentView: Route = {
  method: 'GET',
  path: '/v3/attachments/:attachmentId/views/:viewId',
  handler: getAttachmentView,
  anonymous: (url: URL, params: Readonly<Record<string, string>>) => isPresigned(url, params),
};

const routes: Route[] = [
  { method: 'POST', path: '/v3/conversations', handler: createConversation },
  { method: 'GET', path: '/v3/conversations', handler: getConversations },
  { method: 'POST', path: `${C}/activities`, handler: throttled(sendToConversation) },
  { method: 'POST', path: `${C}/activities/history`, handler: throttled(sendHistory) },
  { method: 'POST', path: `${C}/activities/:activityId`, handler: throttled(replyToActivity) },
  { method: 'PUT', path: `${C}/activities/:activityId`, handler: throttled(updateActivity) },
  { method: 'DELETE', path: `${C}/activities/:activityId`, handler: throttled(deleteActivity) },
  { method: 'GET', path: `${C}/activities/:activityId/members`, handler: throttled(getActivityMembers) },
  { method: 'GET', path: `${C}/members`, handler: throttled(getConversationMembers) },
  { method: 'GET', path: `${C}/pagedmembers`, handler: throttled(getPagedMembers) },
  { method: 'GET', path: `${C}/members/:memberId`, handler: throttled(getConversationMember) },
  { method: 'DELETE', path: `${C}/members/:memberId`, handler: throttled(deleteConversationMember) },
  { method: 'POST', path: `${C}/attachments`, handler: throttled(uploadAttachment) },
  { method: 'GET', path: '/v3/attachments/:attachmentId', handler: getAttachmentInfo },
  attachmentView,
  // Local-only, read-only and not throttled: lets tests read a conversation back.
  { method: 'GET', path: `${C}/activities`, handler: listActivities },
];

export const connector: LocalService = {
  name: 'connector',
  routes,
  errorBody: (status, code, message) => connectorErrorBody(status, code, message),
  responseHeaders: (requestId) => ({ 'X-Correlating-OperationId': requestId }),
  seed: seedConnector,
};
