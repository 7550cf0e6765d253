// Local Fabric service: eventstream items and folders of a workspace, paged and rate limited.
import { randomUUID } from 'node:crypto';
import { asSent } from '../../as-sent.js';
import { ownEntry } from '../../own-entry.js';
import type { LocalRequest, LocalResponse, LocalService, ServiceContext } from '../../types.js';
import { seedEventstreams, type EventstreamRecord, type WorkspaceRecord } from './eventstreams-seed.js';
import { decodeToken, foldersInScope, pageOf, type ListScope } from './eventstreams-paging.js';

const WORKSPACE = '/v1/workspaces/:workspaceId';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Requests one workspace may take in WINDOW_MS (or the local cloud's rateWindowMs); more answer 429. */
export const REQUESTS_PER_WINDOW = 50;
export const WINDOW_MS = 10_000;

interface RelatedResource {
  readonly resourceId: string;
  readonly resourceType: string;
}

export function fabricErrorBody(status: number, code: string, message: string, requestId: string, related?: RelatedResource): unknown {
  const body: Record<string, unknown> = { errorCode: code, message, requestId, isRetriable: status === 429 || status >= 500, moreDetails: [] };
  if (related) body.relatedResource = related;
  return body;
}

type Fail = (status: number, code: string, message: string, related?: RelatedResource) => LocalResponse;

function failer(ctx: ServiceContext): Fail {
  return (status, code, message, related) => ({ status, body: fabricErrorBody(status, code, message, ctx.requestId, related) });
}

function workspaces(ctx: ServiceContext): Record<string, WorkspaceRecord> {
  ctx.data.workspaces ??= {};
  return ctx.data.workspaces as Record<string, WorkspaceRecord>;
}

/** Seconds until the workspace may be called again, or 0 when this request is admitted (and counted). */
function admit(ws: WorkspaceRecord, now: number, windowMs: number): number {
  const windowStart = now - windowMs;
  ws.requests = ws.requests.filter((t) => t > windowStart);
  if (ws.requests.length >= REQUESTS_PER_WINDOW) return Math.max(1, Math.ceil((ws.requests[0] - windowStart) / 1000));
  ws.requests.push(now);
  return 0;
}

type WorkspaceHandler = (req: LocalRequest, ctx: ServiceContext, ws: WorkspaceRecord, fail: Fail) => LocalResponse;

/** Validates the workspace id, finds the workspace and applies its rate limit before the handler. */
function inWorkspace(handler: WorkspaceHandler): (req: LocalRequest, ctx: ServiceContext) => LocalResponse {
  return (req, ctx) => {
    const fail = failer(ctx);
    const id = req.params.workspaceId;
    if (!UUID.test(id)) return fail(400, 'InvalidParameter', `The workspaceId '${id}' is not a valid UUID.`);
    const ws = ownEntry(workspaces(ctx), id.toLowerCase());
    const related = { resourceId: id, resourceType: 'Workspace' };
    if (!ws) return fail(404, 'WorkspaceNotFound', `The workspace '${id}' was not found or you do not have access to it.`, related);
    const windowMs = ctx.rateWindowMs ?? WINDOW_MS;
    const wait = admit(ws, ctx.now().getTime(), windowMs);
    ctx.save();
    if (wait > 0) {
      const limited = fail(
        429,
        'RequestBlocked',
        `Too many requests for workspace ${id}: at most ${REQUESTS_PER_WINDOW} in ${windowMs / 1000} seconds. Retry after ${wait} seconds.`,
        related,
      );
      return { ...limited, headers: { 'Retry-After': String(wait) } };
    }
    return handler(req, ctx, ws, fail);
  };
}

/** The scope of a list from its query (or its continuation token), or a 4xx. */
function scopeOf(req: LocalRequest, ws: WorkspaceRecord, fail: Fail): ListScope | LocalResponse {
  const q = req.url.searchParams;
  const token = q.get('continuationToken');
  if (token !== null) {
    return decodeToken(token) ?? fail(400, 'InvalidContinuationToken', 'The continuationToken is not valid.');
  }
  const recursive = q.get('recursive');
  if (recursive !== null && !/^(true|false)$/i.test(recursive))
    return fail(400, 'InvalidParameter', `The recursive parameter must be true or false, not '${recursive}'.`);
  const rootFolderId = q.get('rootFolderId') ?? undefined;
  if (rootFolderId !== undefined) {
    if (!UUID.test(rootFolderId)) return fail(400, 'InvalidParameter', `The rootFolderId '${rootFolderId}' is not a valid UUID.`);
    if (!ws.folders.some((f) => f.id === rootFolderId.toLowerCase())) {
      return fail(404, 'FolderNotFound', `The folder '${rootFolderId}' was not found in workspace ${ws.id}.`, {
        resourceId: rootFolderId,
        resourceType: 'Folder',
      });
    }
  }
  return { offset: 0, recursive: recursive === null || recursive.toLowerCase() === 'true', rootFolderId: rootFolderId?.toLowerCase() };
}

function pagedBody(req: LocalRequest, ctx: ServiceContext, all: readonly unknown[], scope: ListScope): LocalResponse {
  const page = pageOf(all, scope);
  if (!page.continuationToken) return { status: 200, body: { value: page.value } };
  const uri = new URL(`${ctx.baseUrl}${req.url.pathname}`);
  uri.searchParams.set('continuationToken', page.continuationToken);
  return { status: 200, body: { value: page.value, continuationToken: page.continuationToken, continuationUri: uri.toString() } };
}

export const listEventstreams = inWorkspace((req, ctx, ws, fail) => {
  const scope = scopeOf(req, ws, fail);
  if ('status' in scope) return scope;
  const folders = foldersInScope(ws.folders, scope);
  return pagedBody(
    req,
    ctx,
    ws.items.filter((item) => folders.has(item.folderId)),
    scope,
  );
});

export const listFolders = inWorkspace((req, ctx, ws, fail) => {
  const scope = scopeOf(req, ws, fail);
  if ('status' in scope) return scope;
  const folders = foldersInScope(ws.folders, scope);
  return pagedBody(
    req,
    ctx,
    ws.folders.filter((f) => folders.has(f.parentFolderId)),
    scope,
  );
});

export const getEventstream = inWorkspace((req, _ctx, ws, fail) => {
  const id = req.params.eventstreamId;
  if (!UUID.test(id)) return fail(400, 'InvalidParameter', `The eventstream id '${id}' is not a valid UUID.`);
  const item = ws.items.find((i) => i.id === id.toLowerCase());
  if (!item) return fail(404, 'ItemNotFound', `The eventstream '${id}' was not found in workspace ${ws.id}.`, { resourceId: id, resourceType: 'Eventstream' });
  return { status: 200, body: item };
});

/** Why a create body is refused, or undefined. */
function createProblem(body: unknown, ws: WorkspaceRecord): { status: number; code: string; message: string } | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { status: 400, code: 'InvalidInput', message: 'The request body must be a JSON object.' };
  const { displayName, description, folderId } = body as Record<string, unknown>;
  if (typeof displayName !== 'string' || displayName.trim() === '' || displayName.length > 256) {
    return { status: 400, code: 'InvalidInput', message: 'displayName is required: 1 to 256 characters.' };
  }
  if (description !== undefined && typeof description !== 'string') return { status: 400, code: 'InvalidInput', message: 'description must be a string.' };
  if (folderId !== undefined && (typeof folderId !== 'string' || !ws.folders.some((f) => f.id === folderId.toLowerCase()))) {
    return { status: 400, code: 'InvalidInput', message: `The folder '${asSent(folderId)}' was not found in workspace ${ws.id}.` };
  }
  if (ws.items.some((i) => i.displayName.toLowerCase() === displayName.toLowerCase())) {
    return { status: 409, code: 'ItemDisplayNameAlreadyInUse', message: `An item named '${displayName}' already exists in workspace ${ws.id}.` };
  }
  return undefined;
}

export const createEventstream = inWorkspace((req, ctx, ws, fail) => {
  const problem = createProblem(req.body, ws);
  if (problem) return fail(problem.status, problem.code, problem.message);
  const body = req.body as { displayName: string; description?: string; folderId?: string };
  const item: EventstreamRecord = {
    id: randomUUID(),
    type: 'Eventstream',
    displayName: body.displayName,
    description: body.description ?? '',
    workspaceId: ws.id,
    ...(body.folderId ? { folderId: body.folderId.toLowerCase() } : {}),
  };
  ws.items.push(item);
  ctx.save();
  return { status: 201, headers: { Location: `${ctx.baseUrl}/v1/workspaces/${ws.id}/eventstreams/${item.id}` }, body: item };
});

export const fabricEventstreams: LocalService = {
  name: 'fabric',
  routes: [
    { method: 'GET', path: `${WORKSPACE}/eventstreams`, handler: listEventstreams },
    { method: 'POST', path: `${WORKSPACE}/eventstreams`, handler: createEventstream },
    { method: 'GET', path: `${WORKSPACE}/eventstreams/:eventstreamId`, handler: getEventstream },
    { method: 'GET', path: `${WORKSPACE}/folders`, handler: listFolders },
  ],
  errorBody: (status, code, message, requestId) => fabricErrorBody(status, code, message, requestId),
  responseHeaders: (requestId) => ({ RequestId: requestId }),
  seed: seedEventstreams,
};
