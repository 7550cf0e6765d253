// Paging: nextLink (usage, billing), continuationUri/continuationToken (Fabric, connector), top checked.
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { UserError } from '../../src/core/diagnostics.js';
import { ENDPOINTS, failure, harness, mswServer } from './helpers.js';

const server = mswServer();

const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';

describe('nextLink', () => {
  it('lists usage over every page', async () => {
    const base = `${ENDPOINTS.arm}/subscriptions/${SUB}/providers/Vendor.ContainerInstance/locations/westeurope/usages`;
    server.use(
      http.get(base, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        return HttpResponse.json({
          value: [{ name: { value: `Kind${page}` }, currentValue: page, limit: 100 }],
          ...(page < 3 ? { nextLink: `${base}?api-version=2026-07-01&page=${page + 1}` } : {}),
        });
      }),
    );
    const usage = await harness().providers.arm.listUsage(SUB, 'westeurope');
    expect(usage.map((u) => u.name.value)).toEqual(['Kind1', 'Kind2', 'Kind3']);
  });

  it('lists billing transactions over every page with the query sent', async () => {
    const base = `${ENDPOINTS.arm}/providers/Vendor.Billing/billingAccounts/123456/invoices/G123456789/transactions`;
    const queries: string[] = [];
    server.use(
      http.get(base, ({ request }) => {
        const url = new URL(request.url);
        queries.push(url.search);
        const skip = Number(url.searchParams.get('skip') ?? '0');
        return HttpResponse.json({
          value: [{ name: `t${skip}` }, { name: `t${skip + 1}` }],
          ...(skip < 4 ? { nextLink: `${base}?api-version=2024-04-01&top=2&skip=${skip + 2}` } : {}),
        });
      }),
    );
    const list = await harness().providers.billing.listTransactions('123456', 'G123456789', { top: 2, filter: "kind eq 'Other'" });
    expect(list).toHaveLength(6);
    expect(queries[0]).toContain('api-version=2024-04-01');
    expect(queries[0]).toContain('top=2');
    expect(queries[0]).toContain('filter=');
  });

  it('refuses top over 50 before sending anything', async () => {
    const err = await failure(Promise.resolve().then(() => harness().providers.billing.listTransactions('1', 'G1', { top: 51 })));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toMatch(/1 to 50/);
  });

  it('refuses a nextLink on another origin', async () => {
    const base = `${ENDPOINTS.arm}/subscriptions/${SUB}/providers/Vendor.ContainerInstance/locations/x/usages`;
    server.use(http.get(base, () => HttpResponse.json({ value: [], nextLink: 'https://evil.test/steal' })));
    const err = await failure(harness().providers.arm.listUsage(SUB, 'x'));
    expect(err.message).toMatch(/not its configured endpoint/);
  });
});

describe('continuation', () => {
  it('lists eventstreams through continuationUri and honours a 429 on the way', async () => {
    const base = `${ENDPOINTS.fabric}/v1/workspaces/ws1/eventstreams`;
    let throttled = false;
    server.use(
      http.get(base, ({ request }) => {
        const token = new URL(request.url).searchParams.get('continuationToken');
        if (token === 'p2' && !throttled) {
          throttled = true;
          return HttpResponse.json({ errorCode: 'RequestBlocked', message: 'throttled', isRetriable: true }, { status: 429, headers: { 'Retry-After': '4' } });
        }
        if (!token)
          return HttpResponse.json({ value: [{ id: '1', displayName: 'a' }], continuationToken: 'p2', continuationUri: `${base}?continuationToken=p2` });
        if (token === 'p2')
          return HttpResponse.json({ value: [{ id: '2', displayName: 'b' }], continuationToken: 'p3', continuationUri: `${base}?continuationToken=p3` });
        return HttpResponse.json({ value: [{ id: '3', displayName: 'c' }] });
      }),
    );
    const h = harness();
    const list = await h.providers.fabric.listEventstreams('ws1', { recursive: false });
    expect(list.map((e) => e.displayName)).toEqual(['a', 'b', 'c']);
    expect(h.sleeps).toEqual([4000]);
  });

  it('lists paged members through continuationToken alone', async () => {
    const base = `${ENDPOINTS.connector}v3/conversations/c1/pagedmembers`;
    server.use(
      http.get(base, ({ request }) => {
        const url = new URL(request.url);
        const token = url.searchParams.get('continuationToken');
        expect(url.searchParams.get('pageSize')).toBe('2');
        if (!token) return HttpResponse.json({ members: [{ id: 'u1' }, { id: 'u2' }], continuationToken: 'n' });
        return HttpResponse.json({ members: [{ id: 'u3' }] });
      }),
    );
    const members = await harness().providers.connector.getConversationPagedMembers('c1', 2);
    expect(members.map((m) => m.id)).toEqual(['u1', 'u2', 'u3']);
  });
});
