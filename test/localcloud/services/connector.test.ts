// Unit tests of the local conversation connector: conversations, activities, channels, members, attachments.
import { describe, expect, it } from 'vitest';
import { connector, OPERATIONS_PER_HOUR, OPERATIONS_PER_SECOND } from '../../../src/localcloud/services/connector/connector.js';
import { seedConnector } from '../../../src/localcloud/services/connector/store.js';
import { isPresigned } from '../../../src/localcloud/services/connector/attachments.js';
import type { LocalResponse } from '../../../src/localcloud/types.js';
import { fakeContext, request, type FakeContext } from './fake-context.js';

const OPS = '19:ops-alerts';
const NOEDIT = '19:noedit-alerts';

function seeded(): FakeContext {
  const data: Record<string, unknown> = {};
  seedConnector(data);
  return fakeContext(data);
}

/** Calls the service's own route table, so the throttling wrapper is part of what is tested. */
function call(
  ctx: FakeContext,
  method: string,
  template: string,
  params: Record<string, string>,
  init: { body?: unknown; query?: Record<string, string> } = {},
): LocalResponse {
  const route = connector.routes.find((r) => r.method === method && r.path === template);
  if (!route) throw new Error(`no route ${method} ${template}`);
  return route.handler(request(method, template, { params, ...init }), ctx) as LocalResponse;
}

const C = '/v3/conversations/:conversationId';
const send = (ctx: FakeContext, conversationId: string, body: unknown) => call(ctx, 'POST', `${C}/activities`, { conversationId }, { body });
const idOf = (res: LocalResponse) => (res.body as { id: string }).id;
const errorOf = (res: LocalResponse) => (res.body as { error: { code: string; message: string; innerHttpError: { statusCode: number } } }).error;
const activities = (ctx: FakeContext, conversationId: string) =>
  (call(ctx, 'GET', `${C}/activities`, { conversationId }).body as { activities: Record<string, unknown>[] }).activities;

describe('connector activities', () => {
  it('sends (201 {id}), replies threaded, updates with history and deletes', () => {
    const ctx = seeded();
    const first = send(ctx, OPS, { type: 'message', text: 'plan: 1 to create' });
    expect(first.status).toBe(201);
    ctx.advance(1000);
    const reply = call(
      ctx,
      'POST',
      `${C}/activities/:activityId`,
      { conversationId: OPS, activityId: idOf(first) },
      { body: { type: 'message', text: 'applied' } },
    );
    expect(reply.status).toBe(201);
    const update = call(
      ctx,
      'PUT',
      `${C}/activities/:activityId`,
      { conversationId: OPS, activityId: idOf(first) },
      { body: { type: 'message', text: 'plan: no changes' } },
    );
    expect(update).toMatchObject({ status: 200, body: { id: idOf(first) } });
    const [a, b] = activities(ctx, OPS);
    expect(a).toMatchObject({ id: idOf(first), text: 'plan: no changes', history: [{ text: 'plan: 1 to create' }] });
    expect(b).toMatchObject({ id: idOf(reply), replyToId: idOf(first), text: 'applied' });
    ctx.advance(1000);
    expect(call(ctx, 'DELETE', `${C}/activities/:activityId`, { conversationId: OPS, activityId: idOf(reply) }, {}).status).toBe(200);
    expect(activities(ctx, OPS).map((x) => x.id)).toEqual([idOf(first)]);
  });

  it.each(['PUT', 'DELETE'])('answers 405 to %s on a channel that cannot edit', (method) => {
    const ctx = seeded();
    const sent = send(ctx, NOEDIT, { type: 'message', text: 'hello' });
    const res = call(ctx, method, `${C}/activities/:activityId`, { conversationId: NOEDIT, activityId: idOf(sent) }, { body: { type: 'message', text: 'x' } });
    expect(res.status).toBe(405);
    expect(errorOf(res).message).toBe('The channel does not support this operation.');
    expect(errorOf(res).innerHttpError.statusCode).toBe(405);
  });

  it.each([
    ['no type', { text: 'x' }, 'MissingProperty'],
    ['an unknown type', { type: 'shout' }, 'BadArgument'],
    ['text over 28,000 characters', { type: 'message', text: 'x'.repeat(28_001) }, 'MessageSizeTooBig'],
  ])('refuses an activity with %s (400)', (_reason, body, code) => {
    const res = send(seeded(), OPS, body);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe(code);
  });

  it('answers 404 for an unknown conversation or activity', () => {
    const ctx = seeded();
    expect(errorOf(send(ctx, '19:nope', { type: 'message' })).code).toBe('ConversationNotFound');
    const res = call(ctx, 'PUT', `${C}/activities/:activityId`, { conversationId: OPS, activityId: '1' }, { body: { type: 'message' } });
    expect(res.status).toBe(404);
  });

  it('stores a transcript sent as history', () => {
    const ctx = seeded();
    const res = call(
      ctx,
      'POST',
      `${C}/activities/history`,
      { conversationId: OPS },
      {
        body: {
          activities: [
            { type: 'message', text: 'a' },
            { type: 'message', text: 'b' },
          ],
        },
      },
    );
    expect(res.status).toBe(201);
    expect(activities(ctx, OPS).map((a) => a.text)).toEqual(['a', 'b']);
  });

  it(`answers 429 with Retry-After after ${OPERATIONS_PER_SECOND} operations in a second on one conversation`, () => {
    const ctx = seeded();
    for (let i = 0; i < OPERATIONS_PER_SECOND; i++) expect(send(ctx, OPS, { type: 'message' }).status).toBe(201);
    const limited = send(ctx, OPS, { type: 'message' });
    expect(limited.status).toBe(429);
    expect(limited.headers?.['retry-after']).toBe('1');
    expect(send(ctx, NOEDIT, { type: 'message' }).status).toBe(201);
    ctx.advance(1001);
    expect(send(ctx, OPS, { type: 'message' }).status).toBe(201);
  });

  it(`answers 429 after ${OPERATIONS_PER_HOUR} operations in an hour, with a Retry-After until the oldest leaves the hour`, () => {
    const ctx = seeded();
    for (let i = 0; i < OPERATIONS_PER_HOUR; i++) {
      expect(call(ctx, 'GET', `${C}/members`, { conversationId: OPS }).status).toBe(200);
      ctx.advance(200);
    }
    const limited = call(ctx, 'GET', `${C}/members`, { conversationId: OPS });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers?.['retry-after'])).toBeGreaterThan(1);
  });

  it('accepts an activity whose recipient is a partial account, as SDK clients send', () => {
    expect(send(seeded(), OPS, { type: 'message', text: 'x', from: { id: '28:moor-bot' }, recipient: { name: '' } }).status).toBe(201);
  });
});

describe('connector conversations and members', () => {
  it('creates a group conversation with a first activity (201 {id, activityId, serviceUrl})', () => {
    const ctx = seeded();
    const res = call(
      ctx,
      'POST',
      '/v3/conversations',
      {},
      { body: { isGroup: true, bot: { id: '28:moor-bot' }, members: [{ id: '29:a' }], topicName: 't', activity: { type: 'message', text: 'hi' } } },
    );
    expect(res.status).toBe(201);
    const body = res.body as { id: string; activityId: string; serviceUrl: string };
    expect(body.serviceUrl).toBe(`${ctx.baseUrl}/`);
    expect(activities(ctx, body.id)[0]).toMatchObject({ id: body.activityId, text: 'hi' });
  });

  it('reuses a one-to-one conversation of the same bot and user, and refuses one without exactly one member', () => {
    const ctx = seeded();
    const body = { bot: { id: '28:moor-bot' }, members: [{ id: '29:a' }] };
    const a = idOf(call(ctx, 'POST', '/v3/conversations', {}, { body }));
    expect(idOf(call(ctx, 'POST', '/v3/conversations', {}, { body }))).toBe(a);
    expect(call(ctx, 'POST', '/v3/conversations', {}, { body: { members: [] } }).status).toBe(400);
  });

  it('pages conversations across more than two pages with continuation tokens', () => {
    const ctx = seeded();
    for (let i = 0; i < 23; i++) call(ctx, 'POST', '/v3/conversations', {}, { body: { isGroup: true, members: [{ id: `29:m${i}` }] } });
    const ids: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = call(ctx, 'GET', '/v3/conversations', {}, { query: token ? { continuationToken: token } : {} }).body as {
        conversations: { id: string }[];
        continuationToken?: string;
      };
      ids.push(...page.conversations.map((c) => c.id));
      token = page.continuationToken;
      pages += 1;
    } while (token);
    expect(pages).toBe(3);
    expect(new Set(ids).size).toBe(25);
  });

  it('pages members with pageSize and continuationToken', () => {
    const ctx = seeded();
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = call(ctx, 'GET', `${C}/pagedmembers`, { conversationId: OPS }, { query: { pageSize: '3', ...(token ? { continuationToken: token } : {}) } });
      const page = res.body as { members: { id: string }[]; continuationToken?: string };
      seen.push(...page.members.map((m) => m.id));
      token = page.continuationToken;
      pages += 1;
      ctx.advance(1000);
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual((call(ctx, 'GET', `${C}/members`, { conversationId: OPS }).body as { id: string }[]).map((m) => m.id));
  });

  it('gets a member, 404s an unknown one, and deletes the conversation with its last member', () => {
    const ctx = seeded();
    expect(call(ctx, 'GET', `${C}/members/:memberId`, { conversationId: NOEDIT, memberId: '29:user-1' }).body).toMatchObject({ id: '29:user-1' });
    expect(call(ctx, 'GET', `${C}/members/:memberId`, { conversationId: NOEDIT, memberId: '29:zz' }).status).toBe(404);
    for (const memberId of ['29:user-1', '29:user-2']) {
      expect(call(ctx, 'DELETE', `${C}/members/:memberId`, { conversationId: NOEDIT, memberId }).status).toBe(200);
    }
    expect(call(ctx, 'GET', `${C}/members`, { conversationId: NOEDIT }).status).toBe(404);
  });

  it('lists the members of an activity', () => {
    const ctx = seeded();
    const sent = send(ctx, NOEDIT, { type: 'message' });
    const res = call(ctx, 'GET', `${C}/activities/:activityId/members`, { conversationId: NOEDIT, activityId: idOf(sent) });
    expect((res.body as unknown[]).length).toBe(2);
  });
});

describe('connector attachments', () => {
  const content = Buffer.from('plan output\n'.repeat(10));

  it('uploads, describes both views, serves the original and redirects the thumbnail', () => {
    const ctx = seeded();
    const up = call(
      ctx,
      'POST',
      `${C}/attachments`,
      { conversationId: OPS },
      { body: { name: 'plan.txt', type: 'text/plain', originalBase64: content.toString('base64') } },
    );
    expect(up.status).toBe(201);
    const attachmentId = idOf(up);
    const info = call(ctx, 'GET', '/v3/attachments/:attachmentId', { attachmentId });
    expect(info.body).toEqual({
      name: 'plan.txt',
      type: 'text/plain',
      views: [
        { viewId: 'original', size: content.length },
        { viewId: 'thumbnail', size: content.length },
      ],
    });
    const original = call(ctx, 'GET', '/v3/attachments/:attachmentId/views/:viewId', { attachmentId, viewId: 'original' });
    expect(original.headers?.['content-type']).toBe('text/plain');
    expect(Buffer.compare(original.body as Buffer, content)).toBe(0);
    const thumb = call(ctx, 'GET', '/v3/attachments/:attachmentId/views/:viewId', { attachmentId, viewId: 'thumbnail' });
    expect(thumb.status).toBe(302);
    const location = new URL(thumb.headers!.location);
    expect(`${location.origin}${location.pathname}`).toBe(`${ctx.baseUrl}/v3/attachments/${attachmentId}/views/original`);
    expect(isPresigned(location, { attachmentId, viewId: 'original' }, ctx.now().getTime())).toBe(true);
  });

  it('accepts only an unexpired, untampered pre-signed URL of the original view', () => {
    const ctx = seeded();
    const up = call(ctx, 'POST', `${C}/attachments`, { conversationId: OPS }, { body: { type: 'text/plain', originalBase64: content.toString('base64') } });
    const attachmentId = idOf(up);
    const thumb = call(ctx, 'GET', '/v3/attachments/:attachmentId/views/:viewId', { attachmentId, viewId: 'thumbnail' });
    const location = new URL(thumb.headers!.location);
    const params = { attachmentId, viewId: 'original' };
    expect(isPresigned(location, { attachmentId: 'other', viewId: 'original' }, ctx.now().getTime())).toBe(false);
    expect(isPresigned(location, { attachmentId, viewId: 'thumbnail' }, ctx.now().getTime())).toBe(false);
    expect(isPresigned(location, params, Number(location.searchParams.get('se')) + 1)).toBe(false);
    const tampered = new URL(location);
    tampered.searchParams.set('se', String(Number(location.searchParams.get('se')) + 60_000));
    expect(isPresigned(tampered, params, ctx.now().getTime())).toBe(false);
    expect(isPresigned(new URL(`${ctx.baseUrl}/v3/attachments/${attachmentId}/views/original`), params, ctx.now().getTime())).toBe(false);
  });

  it.each([
    ['no type', { originalBase64: 'AAAA' }, 400],
    ['content that is not base64', { type: 'text/plain', originalBase64: '***' }, 400],
  ])('refuses an upload with %s', (_reason, body, status) => {
    expect(call(seeded(), 'POST', `${C}/attachments`, { conversationId: OPS }, { body }).status).toBe(status);
  });

  it('answers 404 for an unknown attachment', () => {
    expect(call(seeded(), 'GET', '/v3/attachments/:attachmentId', { attachmentId: 'nope' }).status).toBe(404);
  });
});
