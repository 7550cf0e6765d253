// Unit tests of the local Fabric eventstream handlers: paging, folder scope, errors, rate limit, create.
import { describe, expect, it } from 'vitest';
import {
  createEventstream,
  getEventstream,
  listEventstreams,
  listFolders,
  REQUESTS_PER_WINDOW,
  WINDOW_MS,
} from '../../../src/localcloud/services/fabric/eventstreams.js';
import { DEMO_WORKSPACE_ID, seedEventstreams } from '../../../src/localcloud/services/fabric/eventstreams-seed.js';
import { fakeContext, request, type FakeContext } from './fake-context.js';

interface Item {
  id: string;
  displayName: string;
  folderId?: string;
  type: string;
  defaultIdentity?: { type: string };
}
interface Page {
  value: Item[];
  continuationToken?: string;
  continuationUri?: string;
}
interface FabricError {
  errorCode: string;
  message: string;
  requestId: string;
  isRetriable: boolean;
  moreDetails: unknown[];
}

function seeded(): FakeContext {
  const data: Record<string, unknown> = {};
  seedEventstreams(data);
  return fakeContext(data);
}

function list(ctx: FakeContext, query: Record<string, string> = {}, workspaceId = DEMO_WORKSPACE_ID) {
  return listEventstreams(request('GET', `/v1/workspaces/${workspaceId}/eventstreams`, { params: { workspaceId }, query }), ctx);
}

/** Follows continuationUri to the end, as an SDK client does. */
function listAll(ctx: FakeContext, query: Record<string, string> = {}): { items: Item[]; pages: number } {
  const items: Item[] = [];
  let pages = 0;
  let res = list(ctx, query);
  for (;;) {
    expect(res.status).toBe(200);
    const page = res.body as Page;
    items.push(...page.value);
    pages += 1;
    if (!page.continuationUri) {
      expect(page.continuationToken).toBeUndefined();
      return { items, pages };
    }
    const next = new URL(page.continuationUri);
    expect(next.origin).toBe(ctx.baseUrl);
    expect(next.searchParams.get('continuationToken')).toBe(page.continuationToken);
    res = list(ctx, Object.fromEntries(next.searchParams));
  }
}

const folders = (ctx: FakeContext) =>
  (
    listFolders(request('GET', '/', { params: { workspaceId: DEMO_WORKSPACE_ID } }), ctx).body as {
      value: { id: string; displayName: string; parentFolderId?: string }[];
    }
  ).value;

describe('eventstream listing', () => {
  it('pages 120 demo eventstreams in pages of 25, the last page without token or uri', () => {
    const { items, pages } = listAll(seeded());
    expect(items).toHaveLength(120);
    expect(pages).toBe(5);
    expect(new Set(items.map((i) => i.id)).size).toBe(120);
    expect(items.every((i) => i.type === 'Eventstream')).toBe(true);
  });

  it('has orders-stream in the root and principals of several types', () => {
    const { items } = listAll(seeded());
    const orders = items.find((i) => i.displayName === 'orders-stream');
    expect(orders).toBeDefined();
    expect(orders?.folderId).toBeUndefined();
    expect(new Set(items.map((i) => i.defaultIdentity?.type)).size).toBeGreaterThanOrEqual(4);
  });

  it('lists only root items with recursive=false, and a folder tree with rootFolderId', () => {
    const ctx = seeded();
    const root = listAll(ctx, { recursive: 'false' }).items;
    expect(root.length).toBeGreaterThan(0);
    expect(root.every((i) => i.folderId === undefined)).toBe(true);
    const analytics = folders(ctx).find((f) => f.displayName === 'analytics')!;
    const archive = folders(ctx).find((f) => f.parentFolderId === analytics.id)!;
    const nested = listAll(ctx, { rootFolderId: analytics.id }).items;
    expect(new Set(nested.map((i) => i.folderId))).toEqual(new Set([analytics.id, archive.id]));
    const flat = listAll(ctx, { rootFolderId: analytics.id, recursive: 'False' }).items;
    expect(flat.every((i) => i.folderId === analytics.id)).toBe(true);
    expect(flat.length).toBeLessThan(nested.length);
  });

  it.each([
    ['a workspace id that is not a UUID', {}, 'nope', 400, 'InvalidParameter'],
    ['an unknown workspace', {}, '00000000-0000-4000-8000-000000000000', 404, 'WorkspaceNotFound'],
    ['a rootFolderId that is not a UUID', { rootFolderId: 'x' }, DEMO_WORKSPACE_ID, 400, 'InvalidParameter'],
    ['an unknown rootFolderId', { rootFolderId: '00000000-0000-4000-8000-000000000000' }, DEMO_WORKSPACE_ID, 404, 'FolderNotFound'],
    ['a recursive value that is not a boolean', { recursive: 'maybe' }, DEMO_WORKSPACE_ID, 400, 'InvalidParameter'],
    ['a forged continuation token', { continuationToken: 'garbage' }, DEMO_WORKSPACE_ID, 400, 'InvalidContinuationToken'],
  ])('refuses %s in the Fabric error shape', (_reason, query, ws, status, code) => {
    const ctx = seeded();
    const res = list(ctx, query, ws);
    expect(res.status).toBe(status);
    const err = res.body as FabricError;
    expect(err).toMatchObject({ errorCode: code, requestId: ctx.requestId, isRetriable: false, moreDetails: [] });
    expect(err.message.length).toBeGreaterThan(0);
  });

  it(`answers 429 with an integer Retry-After and isRetriable after ${REQUESTS_PER_WINDOW} requests in ${WINDOW_MS / 1000}s`, () => {
    const ctx = seeded();
    for (let i = 0; i < REQUESTS_PER_WINDOW; i++) expect(list(ctx).status).toBe(200);
    const limited = list(ctx);
    expect(limited.status).toBe(429);
    expect(limited.headers?.['Retry-After']).toMatch(/^\d+$/);
    expect(limited.body).toMatchObject({ errorCode: 'RequestBlocked', isRetriable: true });
    ctx.advance(WINDOW_MS + 1);
    expect(list(ctx).status).toBe(200);
  });

  it("takes the local cloud's rate window instead of the service's when one is set (tests wait a second, not ten)", () => {
    const ctx = { ...seeded(), rateWindowMs: 2_000 };
    for (let i = 0; i < REQUESTS_PER_WINDOW; i++) expect(list(ctx).status).toBe(200);
    const limited = list(ctx);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers?.['Retry-After'])).toBeLessThanOrEqual(2);
    expect((limited.body as FabricError).message).toContain(`at most ${REQUESTS_PER_WINDOW} in 2 seconds`);
    ctx.advance(2_001);
    expect(list(ctx).status).toBe(200);
  });
});

describe('eventstream items and folders', () => {
  it('lists the folder tree: three folders, one nested', () => {
    const all = folders(seeded());
    expect(all).toHaveLength(3);
    expect(all.filter((f) => f.parentFolderId)).toHaveLength(1);
  });

  it('creates an eventstream (201) that GET and the listing then show', () => {
    const ctx = seeded();
    const params = { workspaceId: DEMO_WORKSPACE_ID };
    const created = createEventstream(request('POST', '/', { params, body: { displayName: 'new-stream', description: 'd' } }), ctx);
    expect(created.status).toBe(201);
    const item = created.body as Item;
    expect(item).toMatchObject({ displayName: 'new-stream', type: 'Eventstream', workspaceId: DEMO_WORKSPACE_ID });
    const got = getEventstream(request('GET', '/', { params: { ...params, eventstreamId: item.id } }), ctx);
    expect(got.body).toEqual(item);
    expect(listAll(ctx).items).toHaveLength(121);
  });

  it.each([
    ['a missing displayName', { description: 'x' }, 400],
    ['a display name already in use', { displayName: 'orders-stream' }, 409],
    ['an unknown folder', { displayName: 'x', folderId: '00000000-0000-4000-8000-000000000000' }, 400],
  ])('refuses a create with %s', (_reason, body, status) => {
    const res = createEventstream(request('POST', '/', { params: { workspaceId: DEMO_WORKSPACE_ID }, body }), seeded());
    expect(res.status).toBe(status);
  });

  it('answers 404 ItemNotFound for an unknown eventstream', () => {
    const params = { workspaceId: DEMO_WORKSPACE_ID, eventstreamId: '00000000-0000-4000-8000-000000000000' };
    const res = getEventstream(request('GET', '/', { params }), seeded());
    expect(res.status).toBe(404);
    expect((res.body as FabricError).errorCode).toBe('ItemNotFound');
  });
});
