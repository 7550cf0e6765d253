// The shared transport against msw faults: retries, Retry-After, lost answers, error shapes, secrets.
import { describe, expect, it } from 'vitest';
import { http, HttpResponse, delay } from 'msw';
import { ServiceError } from '../../src/providers/service-error.js';
import { ENDPOINTS, TOKEN, failure, harness, mswServer } from './helpers.js';

const server = mswServer();

const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const groupUrl = `${ENDPOINTS.arm}/subscriptions/${SUB}/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroups/web`;
const group = { name: 'web', location: 'westeurope', properties: { provisioningState: 'Succeeded', containers: [] } };

describe('retries', () => {
  it('honours Retry-After in seconds on a 429 and then succeeds', async () => {
    let calls = 0;
    server.use(
      http.get(groupUrl, () =>
        ++calls === 1
          ? HttpResponse.json({ error: { code: 'TooManyRequests', message: 'slow down' } }, { status: 429, headers: { 'Retry-After': '7' } })
          : HttpResponse.json(group),
      ),
    );
    const h = harness();
    await expect(h.providers.arm.getContainerGroup(SUB, 'rg', 'web')).resolves.toMatchObject({ name: 'web' });
    expect(h.sleeps).toEqual([7000]);
    expect(h.events.filter((e) => e.type === 'request_retried' || e.type === 'throttled')).toHaveLength(1);
  });

  it('honours x-ms-retry-after-ms and an HTTP-date Retry-After', async () => {
    let calls = 0;
    const date = new Date(Date.now() + 60_000).toUTCString();
    server.use(
      http.get(groupUrl, () => {
        calls++;
        if (calls === 1) return new HttpResponse(null, { status: 503, headers: { 'x-ms-retry-after-ms': '150' } });
        if (calls === 2) return new HttpResponse(null, { status: 503, headers: { 'Retry-After': date } });
        return HttpResponse.json(group);
      }),
    );
    const h = harness();
    await h.providers.arm.getContainerGroup(SUB, 'rg', 'web');
    expect(h.sleeps[0]).toBe(150);
    expect(h.sleeps[1]).toBeGreaterThan(50_000);
    expect(h.sleeps[1]).toBeLessThanOrEqual(60_000);
  });

  it('backs off exponentially with full jitter on 503 without Retry-After', async () => {
    let calls = 0;
    server.use(http.get(groupUrl, () => (++calls < 4 ? new HttpResponse(null, { status: 503 }) : HttpResponse.json(group))));
    const h = harness();
    await h.providers.arm.getContainerGroup(SUB, 'rg', 'web');
    expect(h.sleeps).toEqual([200, 400, 800]);
  });

  it('gives up after maxAttempts with the last error', async () => {
    server.use(http.get(groupUrl, () => HttpResponse.json({ error: { code: 'ServerBusy', message: 'busy' } }, { status: 503 })));
    const h = harness({ maxAttempts: 3 });
    const err = await failure(h.providers.arm.getContainerGroup(SUB, 'rg', 'web'));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.message).toBe('GET containerGroups/web: 503 ServerBusy: busy');
    expect(h.sleeps).toHaveLength(2);
  });

  it('retries a GET after a connection reset', async () => {
    let calls = 0;
    server.use(http.get(groupUrl, () => (++calls === 1 ? HttpResponse.error() : HttpResponse.json(group))));
    const h = harness();
    await expect(h.providers.arm.getContainerGroup(SUB, 'rg', 'web')).resolves.toMatchObject({ name: 'web' });
    expect(calls).toBe(2);
  });

  it('retries a GET that timed out', async () => {
    let calls = 0;
    server.use(
      http.get(groupUrl, async () => {
        if (++calls === 1) await delay(2_000);
        return HttpResponse.json(group);
      }),
    );
    const h = harness({ timeoutMs: 100 });
    await expect(h.providers.arm.getContainerGroup(SUB, 'rg', 'web')).resolves.toMatchObject({ name: 'web' });
    expect(calls).toBe(2);
  });
});

describe('non-idempotent POST', () => {
  const datasets = `${ENDPOINTS.analytics}/v1.0/myorg/groups/ws1/datasets`;

  it('is not retried after a lost answer and reports the outcome as unknown', async () => {
    let calls = 0;
    server.use(
      http.post(datasets, () => {
        calls++;
        return HttpResponse.error();
      }),
    );
    const h = harness();
    const err = await failure(h.providers.analytics.createDataset('ws1', { name: 'sales', tables: [] }));
    expect(calls).toBe(1);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.outcomeUnknown).toBe(true);
    expect(err.message).toMatch(/outcome is unknown/);
  });

  it('is not retried on a 503 and reports the outcome as unknown', async () => {
    let calls = 0;
    server.use(
      http.post(datasets, () => {
        calls++;
        return new HttpResponse(null, { status: 503 });
      }),
    );
    const err = await failure(harness().providers.analytics.createDataset('ws1', { name: 'sales', tables: [] }));
    expect(calls).toBe(1);
    expect(err.outcomeUnknown).toBe(true);
    expect(err.status).toBe(503);
  });

  it('is retried on a 429, which means the request was refused', async () => {
    let calls = 0;
    server.use(
      http.post(datasets, () =>
        ++calls === 1
          ? new HttpResponse(null, { status: 429, headers: { 'Retry-After': '1' } })
          : HttpResponse.json({ id: 'd1', name: 'sales' }, { status: 201 }),
      ),
    );
    await expect(harness().providers.analytics.createDataset('ws1', { name: 'sales', tables: [] })).resolves.toMatchObject({ id: 'd1' });
    expect(calls).toBe(2);
  });

  it('a POST marked idempotent (name availability) is retried on 503', async () => {
    let calls = 0;
    server.use(
      http.post(`${ENDPOINTS.arm}/subscriptions/${SUB}/providers/Vendor.Sql/checkNameAvailability`, () =>
        ++calls === 1 ? new HttpResponse(null, { status: 503 }) : HttpResponse.json({ name: 'db1', available: true }),
      ),
    );
    await expect(harness().providers.arm.checkNameAvailability(SUB, 'db1')).resolves.toMatchObject({ available: true });
    expect(calls).toBe(2);
  });
});

describe('error shapes', () => {
  it.each([
    [
      'ARM CloudError with x-ms-request-id',
      'arm',
      { error: { code: 'ContainerGroupUpdateNotAllowed', message: 'cannot change osType' } },
      { 'x-ms-request-id': 'req-1' },
      409,
      'ContainerGroupUpdateNotAllowed',
      'req-1',
    ],
    [
      'Graph error with innerError request-id',
      'graph',
      { error: { code: 'Request_BadRequest', message: 'bad', innerError: { date: 'x', 'request-id': 'g-1' } } },
      {},
      400,
      'Request_BadRequest',
      'g-1',
    ],
    ['analytics error', 'analytics', { error: { code: 'ItemNotFound', message: 'no table' } }, { RequestId: 'a-1' }, 400, 'ItemNotFound', 'a-1'],
    [
      'Fabric ErrorResponse',
      'fabric',
      { errorCode: 'WorkspaceNotFound', message: 'no ws', requestId: 'f-1', isRetriable: false },
      {},
      404,
      'WorkspaceNotFound',
      'f-1',
    ],
    [
      'connector error with X-Correlating-OperationId',
      'connector',
      { error: { code: 'BadSyntax', message: 'bad activity', innerHttpError: { statusCode: 400, body: 'x' } } },
      { 'X-Correlating-OperationId': 'c-1' },
      400,
      'BadSyntax',
      'c-1',
    ],
  ] as const)('parses the %s', async (_reason, service, body, headers, status, code, requestId) => {
    server.use(http.all(`${ENDPOINTS[service].replace(/\/$/, '')}/*`, () => HttpResponse.json(body, { status, headers })));
    const h = harness();
    const calls: Record<string, () => Promise<unknown>> = {
      arm: () => h.providers.arm.putContainerGroup(SUB, 'rg', 'web', {}),
      graph: () => h.providers.graph.getAuthContext('c1'),
      analytics: () => h.providers.analytics.putTable('ws', 'd', { name: 't' }),
      fabric: () => h.providers.fabric.listEventstreams('ws'),
      connector: () => h.providers.connector.getAttachmentInfo('a1'),
    };
    const err = await failure(calls[service]());
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.status).toBe(status);
    expect(err.code).toBe(code);
    expect(err.requestId ?? err.correlationId).toBe(requestId);
    expect(err.message).toContain(`${status} ${code}:`);
    expect(err.message).toContain(requestId);
  });

  it('names the ARM target in the message like PUT containerGroups/web: 409 Code: text (request id …)', async () => {
    server.use(
      http.put(groupUrl, () =>
        HttpResponse.json(
          { error: { code: 'ContainerGroupUpdateNotAllowed', message: 'osType cannot change' } },
          { status: 409, headers: { 'x-ms-request-id': 'r-9' } },
        ),
      ),
    );
    const err = await failure(harness().providers.arm.putContainerGroup(SUB, 'rg', 'web', {}));
    expect(err.message).toBe('PUT containerGroups/web: 409 ContainerGroupUpdateNotAllowed: osType cannot change (request id r-9)');
    expect(err.path).toBe(new URL(groupUrl).pathname);
  });
});

describe('secrets', () => {
  it('sends the bearer token but never puts it in an error message, even when the service echoes it', async () => {
    let auth = '';
    server.use(
      http.get(groupUrl, ({ request }) => {
        auth = request.headers.get('authorization') ?? '';
        return HttpResponse.json({ error: { code: 'Bad', message: `header was Bearer ${TOKEN} and ${TOKEN}` } }, { status: 400 });
      }),
    );
    const h = harness();
    const err = await failure(h.providers.arm.getContainerGroup(SUB, 'rg', 'web'));
    expect(auth).toBe(`Bearer ${TOKEN}`);
    expect(err.message).not.toContain(TOKEN);
    expect(JSON.stringify(h.events)).not.toContain(TOKEN);
  });

  it('a 401 says to check the credentials of the service', async () => {
    server.use(http.get(groupUrl, () => HttpResponse.json({ error: { code: 'AuthenticationFailed', message: 'bad token' } }, { status: 401 })));
    const err = await failure(harness().providers.arm.getContainerGroup(SUB, 'rg', 'web'));
    expect(err.message).toMatch(/check the credentials of service 'arm'/);
  });
});
