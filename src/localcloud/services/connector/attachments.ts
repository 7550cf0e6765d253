// Connector attachments: upload to a conversation, info, and the original and thumbnail views.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { ownEntry } from '../../own-entry.js';
import type { LocalRequest, LocalResponse, ServiceContext } from '../../types.js';
import { inConversation } from './activities.js';
import { attachments, connectorError, type AttachmentRecord, type Obj } from './store.js';

/** Largest attachment (decoded) the channel stores. */
export const MAX_ATTACHMENT_BYTES = 4 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Per process: pre-signed view URLs die with the server, as expiring blob URLs do. */
const SIGNING_KEY = randomBytes(32);
const SIGNED_URL_TTL_MS = 10 * 60_000;

/** Views served from a pre-signed URL: the original, and a thumbnail that was uploaded. */
type SignedView = 'original' | 'thumbnail';

function signature(attachmentId: string, expires: string, view: SignedView): Buffer {
  const message = view === 'original' ? `${attachmentId}\n${expires}` : `${attachmentId}\n${expires}\n${view}`;
  return createHmac('sha256', SIGNING_KEY).update(message).digest();
}

/**
 * Whether a view URL is pre-signed (`se` expiry, `sig`) and still valid. SDK clients drop the
 * Authorization header when they follow a redirect, so the thumbnail's redirect target must be
 * readable without it: the route offers this as its `anonymous` predicate to the core.
 */
export function isPresigned(url: URL, params: Readonly<Record<string, string>>, now = Date.now()): boolean {
  const expires = url.searchParams.get('se');
  const sig = url.searchParams.get('sig');
  const view = params.viewId;
  if ((view !== 'original' && view !== 'thumbnail') || !expires || !sig || !(Number(expires) > now)) return false;
  const given = Buffer.from(sig, 'base64url');
  const expected = signature(params.attachmentId, expires, view);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function presignedUrl(ctx: ServiceContext, attachmentId: string, view: SignedView): string {
  const expires = String(ctx.now().getTime() + SIGNED_URL_TTL_MS);
  const url = new URL(`${ctx.baseUrl}/v3/attachments/${encodeURIComponent(attachmentId)}/views/${view}`);
  url.searchParams.set('se', expires);
  url.searchParams.set('sig', signature(attachmentId, expires, view).toString('base64url'));
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
  if (size > MAX_ATTACHMENT_BYTES)
    return connectorError(413, 'MessageSizeTooBig', `The attachment is ${size} bytes; the channel stores at most ${MAX_ATTACHMENT_BYTES}.`);
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
  return ownEntry(attachments(ctx), req.params.attachmentId);
}

function attachmentNotFound(id: string): LocalResponse {
  return connectorError(404, 'AttachmentNotFound', `Attachment '${id}' was not found.`);
}

export function getAttachmentInfo(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const record = find(req, ctx);
  if (!record) return attachmentNotFound(req.params.attachmentId);
  const size = Buffer.from(record.originalBase64, 'base64').length;
  // Without an uploaded thumbnail the thumbnail view redirects to the original, so it reports the original's size.
  const thumbnailSize = record.thumbnailBase64 === undefined ? size : Buffer.from(record.thumbnailBase64, 'base64').length;
  const views = [
    { viewId: 'original', size },
    { viewId: 'thumbnail', size: thumbnailSize },
  ];
  return { status: 200, body: { name: record.name ?? record.id, type: record.type, views } };
}

/**
 * The bytes of the original view. The thumbnail view redirects to an absolute, pre-signed URL:
 * of the uploaded thumbnail (served from there), or of the original when none was uploaded.
 */
export function getAttachmentView(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const record = find(req, ctx);
  if (!record) return attachmentNotFound(req.params.attachmentId);
  switch (req.params.viewId) {
    case 'original':
      return { status: 200, headers: { 'content-type': record.type }, body: Buffer.from(record.originalBase64, 'base64') };
    case 'thumbnail':
      if (record.thumbnailBase64 === undefined) return { status: 302, headers: { location: presignedUrl(ctx, record.id, 'original') } };
      if (isPresigned(req.url, req.params, ctx.now().getTime())) {
        return { status: 200, headers: { 'content-type': record.type }, body: Buffer.from(record.thumbnailBase64, 'base64') };
      }
      return { status: 302, headers: { location: presignedUrl(ctx, record.id, 'thumbnail') } };
    default:
      return connectorError(404, 'NotFound', `Attachment '${record.id}' has no view '${req.params.viewId}' (views: original, thumbnail).`);
  }
}
