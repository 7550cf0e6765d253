// Connector attachments: upload to a conversation, info, and the original and thumbnail views.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { LocalRequest, LocalResponse, ServiceContext } from '../types.js';
import { inConversation } from './connector-activities.js';
import { attachments, connectorError, type AttachmentRecord, type Obj } from './connector-store.js';

/** Largest attachment (decoded) the channel stores. */
export const MAX_ATTACHMENT_BYTES = 4 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Per process: pre-signed view URLs die with the server, as expiring blob URLs do. */
const SIGNING_KEY = randomBytes(32);
const SIGNED_URL_TTL_MS = 10 * 60_000;

function signature(attachmentId: string, expires: string): Buffer {
  return createHmac('sha256', SIGNING_KEY).update(`${attachmentId}\n${expires}`).digest();
}

/**
 * Whether a view URL is pre-signed (`se` expiry, `sig`) and still valid. SDK clients drop the
 * Authorization header when they follow a redirect, so the thumbnail's redirect target must be
 * readable without it: the route offers this as its `anonymous` predicate to the core.
 */
export function isPresigned(url: URL, params: Readonly<Record<string, string>>, now = Date.now()): boolean {
  const expires = url.searchParams.get('se');
  const sig = url.searchParams.get('sig');
  if (params.viewId !== 'original' || !expires || !sig || !(Number(expires) > now)) return false;
  const given = Buffer.from(sig, 'base64url');
  const expected = signature(params.attachmentId, expires);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function presignedOriginalUrl(ctx: ServiceContext, attachmentId: string): string {
  const expires = String(ctx.now().getTime() + SIGNED_URL_TTL_MS);
  const url = new URL(`${ctx.baseUrl}/v3/attachments/${encodeURIComponent(attachmentId)}/views/original`);
  url.searchParams.set('se', expires);
  url.searchParams.set('sig', signature(attachmentId, expires).toString('base64url'));
  return url.toString();
}

function base64Problem(value: unknown, field: string, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || !BASE64.test(value) || value.length % 4 !== 0) return `${field} must be base64 content.`;
  return undefined;
}

function uploadProblem(body: unknown): LocalResponse | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return connectorError(400, 'BadArgument', 'The request body must be AttachmentData.');
  const data = body as Obj;
  if (typeof data.type !== 'string' || data.type === '') return connectorError(400, 'MissingProperty', "AttachmentData 'type' (the content type) is required.");
  if (data.name !== undefined && typeof data.name !== 'string') return connectorError(400, 'BadArgument', 'name must be a string.');
  const problem = base64Problem(data.originalBase64, 'originalBase64', true) ?? base64Problem(data.thumbnailBase64, 'thumbnailBase64', false);
  if (problem) return connectorError(400, 'BadArgument', problem);
  const size = Buffer.from(String(data.originalBase64), 'base64').length;
  if (size > MAX_ATTACHMENT_BYTES) return connectorError(413, 'MessageSizeTooBig', `The attachment is ${size} bytes; the channel stores at most ${MAX_ATTACHMENT_BYTES}.`);
  return undefined;
}

export const uploadAttachment = inConversation((req, ctx, conversation) => {
  const refused = uploadProblem(req.body);
  if (refused) return refused;
  const data = req.body as Obj;
  const record: AttachmentRecord = {
    id: randomUUID().replace(/-/g, ''),
    conversationId: conversation.id,
    type: String(data.type),
    originalBase64: String(data.originalBase64),
    ...(typeof data.name === 'string' ? { name: data.name } : {}),
    ...(typeof data.thumbnailBase64 === 'string' ? { thumbnailBase64: data.thumbnailBase64 } : {}),
  };
  attachments(ctx)[record.id] = record;
  ctx.save();
  return { status: 201, body: { id: record.id } };
});

function find(req: LocalRequest, ctx: ServiceContext): AttachmentRecord | undefined {
  return attachments(ctx)[req.params.attachmentId];
}

function attachmentNotFound(id: string): LocalResponse {
  return connectorError(404, 'AttachmentNotFound', `Attachment '${id}' was not found.`);
}

export function getAttachmentInfo(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const record = find(req, ctx);
  if (!record) return attachmentNotFound(req.params.attachmentId);
  const size = Buffer.from(record.originalBase64, 'base64').length;
  // The thumbnail view redirects to the original, so both report the original's size.
  const views = [{ viewId: 'original', size }, { viewId: 'thumbnail', size }];
  return { status: 200, body: { name: record.name ?? record.id, type: record.type, views } };
}

/** The bytes of the original view; the thumbnail view redirects to the original's absolute, pre-signed URL. */
export function getAttachmentView(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const record = find(req, ctx);
  if (!record) return attachmentNotFound(req.params.attachmentId);
  switch (req.params.viewId) {
    case 'original':
      return { status: 200, headers: { 'content-type': record.type }, body: Buffer.from(record.originalBase64, 'base64') };
    case 'thumbnail':
      return { status: 302, headers: { location: presignedOriginalUrl(ctx, record.id) } };
    default:
      return connectorError(404, 'NotFound', `Attachment '${record.id}' has no view '${req.params.viewId}' (views: original, thumbnail).`);
  }
}
