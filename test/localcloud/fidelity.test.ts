// Differences to the real services closed (issue 10): rate-limit headers on every ARM answer,
// each service's error shape for an unknown path, separate conversations, uploaded thumbnails,
// the billing transaction and analytics dataset fields.
import { describe, expect, it } from 'vitest';
import type { ParsedJson } from '../support/parsed-json.js';
import { call, cloud, groupUrl, SUB } from './helpers.js';

const conversation = (url: string, id: string) => `${url}/v3/conversations/${encodeURIComponent(id)}`;

describe('local cloud fidelity', () => {
  it('puts x-ms-ratelimit-remaining-* on every ARM answer without --rate-limit, counting down', async () => {
    const c = await cloud();
    const first = await call(groupUrl(c.url, 'none'));
    const second = await call(groupUrl(c.url, 'none'));
    const reads = [first, second].map((r) => Number(r.headers.get('x-ms-ratelimit-remaining-subscription-reads')));
    expect(reads[0]).toBeGreaterThan(200);
    expect(reads[1]).toBeLessThanOrEqual(reads[0]);
    const del = await call(groupUrl(c.url, 'none'), { method: 'DELETE' });
    expect(del.headers.get('x-ms-ratelimit-remaining-subscription-deletes')).toMatch(/^\d+$/);
  });

  it('counts each subscription in its own buckets, as ARM does', async () => {
    const c = await cloud();
    const other = '0d3c2b1a-9999-4222-8333-444455556666';
    const remaining = async (sub: string) =>
      Number((await call(groupUrl(c.url, 'none').replace(SUB, sub))).headers.get('x-ms-ratelimit-remaining-subscription-reads'));
    const first = await remaining(SUB);
    for (let i = 0; i < 5; i++) await remaining(SUB);
    expect(await remaining(other)).toBeGreaterThan(first - 1);
  });

  it.each([
    [
      'ARM',
      `/subscriptions/${SUB}/providers/Vendor.ContainerInstance/nothingHere`,
      (b: ParsedJson) => expect(b.error).toMatchObject({ code: 'NotFound', details: [] }),
    ],
    ['database movement', '/databasemovement/v1/nothing', (b: ParsedJson) => expect(b).toMatchObject({ IsSuccess: false, ErrorMessage: expect.any(String) })],
    ['eventstreams', '/v1/workspaces/x/nothing/here', (b: ParsedJson) => expect(b).toMatchObject({ errorCode: 'NotFound', requestId: expect.any(String) })],
    ['connector', '/v3/nothing', (b: ParsedJson) => expect(b.error).toMatchObject({ code: 'NotFound', innerHttpError: { statusCode: 404 } })],
  ])("answers an unknown %s path with 404 in that service's error shape", async (_service, path, check) => {
    const c = await cloud();
    const res = await call(`${c.url}${path}`);
    expect(res.status).toBe(404);
    check(res.body);
  });

  it('keeps the activities of each demo conversation apart', async () => {
    const c = await cloud();
    const sent = await call(`${conversation(c.url, '19:ops-alerts')}/activities`, { method: 'POST', body: { type: 'message', text: 'only here' } });
    expect(sent.status).toBe(201);
    const ops = await call(`${conversation(c.url, '19:ops-alerts')}/activities`);
    const other = await call(`${conversation(c.url, '19:noedit-alerts')}/activities`);
    expect(JSON.stringify(ops.body)).toContain('only here');
    expect(JSON.stringify(other.body)).not.toContain('only here');
  });

  it('serves an uploaded thumbnail from the thumbnail view, not the original', async () => {
    const c = await cloud();
    const original = Buffer.from('the original bytes');
    const thumbnail = Buffer.from('thumb');
    const up = await call(`${conversation(c.url, '19:ops-alerts')}/attachments`, {
      method: 'POST',
      body: { name: 'p.png', type: 'image/png', originalBase64: original.toString('base64'), thumbnailBase64: thumbnail.toString('base64') },
    });
    const info = await call(`${c.url}/v3/attachments/${up.body.id}`);
    expect(info.body.views).toEqual([
      { viewId: 'original', size: original.length },
      { viewId: 'thumbnail', size: thumbnail.length },
    ]);
    const view = await fetch(`${c.url}/v3/attachments/${up.body.id}/views/thumbnail`, { headers: { authorization: 'Bearer local-dev-token' } });
    expect(view.status).toBe(200);
    expect(Buffer.from(await view.arrayBuffer()).equals(thumbnail)).toBe(true);
  });

  it('answers transactions with systemData, tags and the customer, part number and plan fields billing transactions carry', async () => {
    const c = await cloud();
    const res = await call(`${c.url}/providers/Vendor.Billing/billingAccounts/12345678/invoices/G012345678/transactions?api-version=2024-04-01`);
    const t = res.body.value[0];
    expect(t.systemData).toMatchObject({ createdAt: expect.any(String), createdByType: 'Application', lastModifiedAt: expect.any(String) });
    expect(t.tags).toEqual({});
    expect(t.properties).toMatchObject({
      customerId: expect.any(String),
      customerDisplayName: expect.any(String),
      partNumber: expect.any(String),
      vendorPlan: expect.any(String),
    });
  });

  it('answers GET dataset with the dataset fields a push dataset has', async () => {
    const c = await cloud();
    const group = 'f089354e-8366-4e18-aea3-4cb4a3a50b48';
    const made = await call(`${c.url}/v1.0/myorg/groups/${group}/datasets`, {
      method: 'POST',
      body: { name: 'd', defaultMode: 'Push', tables: [{ name: 'T', columns: [{ name: 'a', dataType: 'Int64' }] }] },
    });
    const got = await call(`${c.url}/v1.0/myorg/groups/${group}/datasets/${made.body.id}`);
    expect(got.body).toMatchObject({
      ContentProviderType: 'RealTimeInPushMode',
      isInPlaceSharingEnabled: false,
      upstreamDataflows: [],
      queryScaleOutSettings: { autoSyncReadOnlyReplicas: true, maxReadOnlyReplicas: 0 },
      addRowsAPIEnabled: true,
    });
  });
});
