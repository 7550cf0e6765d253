// Each client's requests as the services expect them: paths, headers, queries, and which calls are retried.
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { ENDPOINTS, failure, harness, mswServer } from './helpers.js';

const server = mswServer();

const LCS = `${ENDPOINTS.lcs}/databasemovement/v1`;

describe('lcs', () => {
  it('sends the refresh with x-vendor-version and returns IsSuccess false without throwing', async () => {
    let version: string | null = null;
    server.use(
      http.post(`${LCS}/refresh/project/1234567/source/prod/target/uat`, ({ request }) => {
        version = request.headers.get('x-vendor-version');
        return HttpResponse.json({ IsSuccess: false, ErrorMessage: 'limit reached', OperationActivityId: null });
      }),
    );
    await expect(harness().providers.lcs.refreshDatabase('1234567', 'prod', 'uat')).resolves.toMatchObject({ IsSuccess: false, ErrorMessage: 'limit reached' });
    expect(version).toBe('2017-09-15');
  });

  it('never resends an export whose answer was lost', async () => {
    let calls = 0;
    server.use(
      http.post(`${LCS}/export/project/p/environment/e/backupName/b`, () => {
        calls++;
        return HttpResponse.error();
      }),
    );
    const err = await failure(harness().providers.lcs.exportDatabase('p', 'e', 'b'));
    expect(calls).toBe(1);
    expect(err.outcomeUnknown).toBe(true);
  });

  it('retries a status read on 503', async () => {
    let calls = 0;
    server.use(
      http.get(`${LCS}/fetchstatus/project/p/environment/e/operationactivity/op1`, () =>
        ++calls === 1 ? new HttpResponse(null, { status: 503 }) : HttpResponse.json({ IsSuccess: true, OperationStatus: 'InProgress' }),
      ),
    );
    await expect(harness().providers.lcs.fetchStatus('p', 'e', 'op1')).resolves.toMatchObject({ OperationStatus: 'InProgress' });
    expect(calls).toBe(2);
  });
});

describe('graph and analytics', () => {
  it('PATCHes only the given properties at the beta path, and a DELETE of an unknown id succeeds', async () => {
    let body: unknown;
    server.use(
      http.patch(`${ENDPOINTS.graph}/beta/identity/conditionalAccess/authenticationContextClassReferences/c3`, async ({ request }) => {
        body = await request.json();
        return new HttpResponse(null, { status: 204 });
      }),
      http.delete(`${ENDPOINTS.graph}/beta/identity/conditionalAccess/authenticationContextClassReferences/c9`, () =>
        HttpResponse.json({ error: { code: 'NotFound', message: 'no' } }, { status: 404 }),
      ),
    );
    const h = harness();
    await h.providers.graph.patchAuthContext('c3', { isAvailable: true });
    await h.providers.graph.deleteAuthContext('c9');
    expect(body).toEqual({ isAvailable: true });
  });

  it('creates a dataset with defaultRetentionPolicy in the query', async () => {
    let query = '';
    server.use(
      http.post(`${ENDPOINTS.analytics}/v1.0/myorg/groups/ws1/datasets`, ({ request }) => {
        query = new URL(request.url).search;
        return HttpResponse.json({ id: 'd1', name: 'sales', defaultRetentionPolicy: 'basicFIFO' }, { status: 202 });
      }),
    );
    await expect(harness().providers.analytics.createDataset('ws1', { name: 'sales', tables: [] }, 'basicFIFO')).resolves.toMatchObject({ id: 'd1' });
    expect(query).toBe('?defaultRetentionPolicy=basicFIFO');
  });
});

describe('connector', () => {
  it('retries 502 with backoff and reports X-Correlating-OperationId on failure', async () => {
    let calls = 0;
    server.use(
      http.get(`${ENDPOINTS.connector}v3/attachments/a1`, () => {
        calls++;
        return HttpResponse.json(
          { error: { code: 'ServiceError', message: 'bad gateway' } },
          { status: 502, headers: { 'X-Correlating-OperationId': 'corr-7' } },
        );
      }),
    );
    const h = harness({ maxAttempts: 3 });
    const err = await failure(h.providers.connector.getAttachmentInfo('a1'));
    expect(calls).toBe(3);
    expect(err.correlationId).toBe('corr-7');
    expect(err.message).toContain('corr-7');
  });

  it('does not retry a 503 (the connector asks for 429, 502 and 504 only)', async () => {
    let calls = 0;
    server.use(
      http.get(`${ENDPOINTS.connector}v3/attachments/a2`, () => {
        calls++;
        return new HttpResponse(null, { status: 503 });
      }),
    );
    await failure(harness().providers.connector.getAttachmentInfo('a2'));
    expect(calls).toBe(1);
  });

  it('reads attachment bytes through a redirect', async () => {
    server.use(
      http.get(
        `${ENDPOINTS.connector}v3/attachments/a3/views/original`,
        () => new HttpResponse(null, { status: 302, headers: { Location: `${ENDPOINTS.connector}blobs/a3` } }),
      ),
      http.get(`${ENDPOINTS.connector}blobs/a3`, () => new HttpResponse(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/png' } })),
    );
    const content = await harness().providers.connector.getAttachment('a3', 'original');
    expect(content.contentType).toBe('image/png');
    expect([...content.bytes]).toEqual([1, 2, 3]);
  });
});
