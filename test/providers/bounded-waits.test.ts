// Bounded and visible waits: paging past the cap, Retry-After past the ceiling, a request's total time, the operation timeout (issue 13, item 8).
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { ServiceError } from '../../src/providers/service-error.js';
import { waitNotice } from '../../src/engine/transport-settings.js';
import { createProviders } from '../../src/providers/providers.js';
import { ENDPOINTS, failure, harness, mswServer } from './helpers.js';

const server = mswServer();
const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const usages = `${ENDPOINTS.arm}/subscriptions/${SUB}/providers/Vendor.ContainerInstance/locations/westeurope/usages`;
const groupUrl = `${ENDPOINTS.arm}/subscriptions/${SUB}/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroups/web`;
const usage = (n: number) => ({ name: { value: `Kind${n}` }, currentValue: n, limit: 100 });

describe('paging', () => {
  it('past the page cap is an error, never a truncated list', async () => {
    let pages = 0;
    server.use(
      http.get(usages, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        pages++;
        return HttpResponse.json({ value: [usage(page)], nextLink: `${usages}?api-version=2026-07-01&page=${page + 1}` });
      }),
    );
    const err = await failure(harness({ limits: { maxPages: 3 } }).providers.arm.listUsage(SUB, 'westeurope'));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.message).toMatch(/the listing has more than 3 pages; stopped rather than report a partial list/);
    expect(pages).toBe(3);
  });

  it('a listing that links back to a page it gave is an error at once', async () => {
    let pages = 0;
    server.use(
      http.get(usages, () => {
        pages++;
        return HttpResponse.json({ value: [usage(1)], nextLink: `${usages}?api-version=2026-07-01&page=2` });
      }),
    );
    const err = await failure(harness().providers.arm.listUsage(SUB, 'westeurope'));
    expect(err.message).toMatch(/points back to a page it already gave/);
    expect(pages).toBe(2);
  });

  it('a continuation token that repeats is an error', async () => {
    server.use(http.get(`${ENDPOINTS.fabric}/v1/workspaces/ws/eventstreams`, () => HttpResponse.json({ value: [], continuationToken: 'same' })));
    expect((await failure(harness().providers.fabric.listEventstreams('ws'))).message).toMatch(/points back/);
  });
});

describe('Retry-After', () => {
  it('beyond the ceiling fails the request at once with a clear message, without waiting', async () => {
    let calls = 0;
    server.use(
      http.get(groupUrl, () => {
        calls++;
        return HttpResponse.json({ error: { code: 'TooManyRequests', message: 'slow down' } }, { status: 429, headers: { 'Retry-After': '999999' } });
      }),
    );
    const h = harness();
    const err = await failure(h.providers.arm.getContainerGroup(SUB, 'rg', 'web'));
    expect(err.message).toBe(
      'GET containerGroups/web: 429 TooManyRequests: slow down; the service asked to wait 999999 s before trying again, longer than the 120 s moor waits (MOOR_MAX_RETRY_AFTER_SECONDS): gave up at once',
    );
    expect(h.sleeps).toEqual([]);
    expect(calls).toBe(1);
  });

  it('the ceiling is configurable', async () => {
    server.use(http.get(groupUrl, () => new HttpResponse(null, { status: 429, headers: { 'Retry-After': '30' } })));
    const h = harness({ maxRetryAfterMs: 10_000 });
    expect((await failure(h.providers.arm.getContainerGroup(SUB, 'rg', 'web'))).message).toMatch(/longer than the 10 s moor waits/);
  });

  it('waits that would pass the time of one request fail it with the last error', async () => {
    let calls = 0;
    server.use(
      http.get(groupUrl, () => {
        calls++;
        return new HttpResponse(null, { status: 503, headers: { 'Retry-After': '40' } });
      }),
    );
    const h = harness({ limits: { maxRequestMs: 100_000 } });
    const err = await failure(h.providers.arm.getContainerGroup(SUB, 'rg', 'web'));
    expect(h.sleeps).toEqual([40_000, 40_000]);
    expect(calls).toBe(3);
    expect(err.message).toMatch(/503: .*gave up: trying again would take longer than the 100 s one request may take/);
  });
});

describe('visible waits', () => {
  it('a wait of 3 s or more is an event and one notice line: "throttled by arm, waiting 40 s"', async () => {
    let calls = 0;
    server.use(
      http.get(groupUrl, () =>
        ++calls === 1
          ? new HttpResponse(null, { status: 429, headers: { 'Retry-After': '40' } })
          : HttpResponse.json({ name: 'web', location: 'westeurope', properties: { containers: [] } }),
      ),
    );
    const h = harness();
    await h.providers.arm.getContainerGroup(SUB, 'rg', 'web');
    const lines = h.events.map(waitNotice).filter((l) => l !== undefined);
    expect(lines).toEqual(['moor: throttled by arm, waiting 40 s before sending GET containerGroups/web again (attempt 2)']);
  });

  it('short waits show nothing', () => {
    expect(waitNotice({ type: 'request_retried', service: 'arm', method: 'GET', path: '/x', label: '/x', status: 503, delayMs: 2_999 })).toBeUndefined();
    expect(
      waitNotice({ type: 'request_retried', service: 'graph', method: 'PATCH', path: '/x', label: 'authContexts/c1', status: 503, attempt: 2, delayMs: 5_000 }),
    ).toBe('moor: graph answered 503, waiting 5 s before sending PATCH authContexts/c1 again (attempt 3)');
  });

  it('a long poll of an operation is shown too', async () => {
    let polls = 0;
    server.use(
      http.put(groupUrl, () => new HttpResponse(null, { status: 202, headers: { 'azure-asyncoperation': `${ENDPOINTS.arm}/op/1`, 'Retry-After': '20' } })),
      http.get(`${ENDPOINTS.arm}/op/1`, () => HttpResponse.json({ status: ++polls < 2 ? 'InProgress' : 'Succeeded' }, { headers: { 'Retry-After': '20' } })),
      http.get(groupUrl, () => HttpResponse.json({ name: 'web', properties: { provisioningState: 'Succeeded' } })),
    );
    const h = harness();
    await h.providers.arm.putContainerGroup(SUB, 'rg', 'web', {});
    expect(h.events.map(waitNotice).filter((l) => l !== undefined)).toEqual([
      'moor: PUT containerGroups/web is still running on arm, waiting 20 s before checking again',
      'moor: PUT containerGroups/web is still running on arm, waiting 20 s before checking again',
    ]);
  });
});

describe('the operation timeout says what happened', () => {
  it('a poll Retry-After of 999999 gives up at once and says so', async () => {
    server.use(
      http.put(groupUrl, () => new HttpResponse(null, { status: 202, headers: { 'azure-asyncoperation': `${ENDPOINTS.arm}/op/2`, 'Retry-After': '999999' } })),
    );
    const sleeps: number[] = [];
    const providers = createProviders({
      endpoints: ENDPOINTS,
      defaultToken: 'tok-123456',
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const err = await failure(providers.arm.putContainerGroup(SUB, 'rg', 'web', {}));
    expect(err.message).toMatch(/PUT had not finished after 0 s; waiting 999999 s more would pass the limit of 1800 s for an operation/);
    expect(err.message).not.toMatch(/within 999999/);
    expect(sleeps).toEqual([]);
  });
});
