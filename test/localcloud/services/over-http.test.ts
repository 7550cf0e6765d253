// Over-HTTP tests of the auth-context, dataset, database-movement, eventstream and connector services.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, cloud, TOKEN } from '../helpers.js';
import { DEMO_WORKSPACE_ID } from '../../../src/localcloud/services/fabric/eventstreams-seed.js';

const AUTH = '/beta/identity/conditionalAccess/authenticationContextClassReferences';
const GROUP = 'f089354e-8366-4e18-aea3-4cb4a3a50b48';
const PROJECT = '1234567';
const PROD = 'a1b2c3d4-0000-4000-8000-000000000001';
const UAT = 'a1b2c3d4-0000-4000-8000-000000000002';
const VERSION = { 'x-vendor-version': '2017-09-15' };

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'moor-lc-services-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('auth contexts over HTTP', () => {
  it('upserts with PATCH (204), reads with GET, and carries request-id headers', async () => {
    const { url } = await cloud();
    const patch = await call(`${url}${AUTH}/c1`, { method: 'PATCH', body: { displayName: 'MFA', isAvailable: true }, headers: { 'client-request-id': 'abc' } });
    expect(patch.status).toBe(204);
    expect(patch.body).toBeUndefined();
    expect(patch.headers.get('client-request-id')).toBe('abc');
    const got = await call(`${url}${AUTH}/c1`);
    expect(got.body).toMatchObject({ id: 'c1', displayName: 'MFA', isAvailable: true });
    expect(got.headers.get('request-id')).toBeTruthy();
  });

  it('answers 401 without the token and 404 in the Graph shape for an unknown id', async () => {
    const { url } = await cloud();
    expect((await call(`${url}${AUTH}/c1`, { token: null })).status).toBe(401);
    const missing = await call(`${url}${AUTH}/c42`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'itemNotFound' });
    expect(missing.body.error.innerError['request-id']).toBe(missing.headers.get('request-id'));
  });
});

describe('push datasets over HTTP', () => {
  const datasets = (url: string) => `${url}/v1.0/myorg/groups/${GROUP}/datasets`;
  const body = { name: 'Sales', tables: [{ name: 'Orders', columns: [{ name: 'Id', dataType: 'Int64' }] }] };

  it('creates two datasets of one name, lists both, and survives a restart', async () => {
    const dataFile = join(dir, 'datasets.json');
    const first = await cloud({ dataFile });
    const a = await call(`${datasets(first.url)}?defaultRetentionPolicy=basicFIFO`, { method: 'POST', body });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ name: 'Sales', defaultRetentionPolicy: 'basicFIFO' });
    expect((await call(datasets(first.url), { method: 'POST', body })).status).toBe(201);
    await first.close();
    const second = await cloud({ dataFile });
    const list = await call(datasets(second.url));
    expect(list.body.value.map((d: { name: string }) => d.name)).toEqual(['Sales', 'Sales']);
    const tables = await call(`${datasets(second.url)}/${a.body.id}/tables`);
    expect(tables.body.value[0]).toMatchObject({ name: 'Orders', columns: [{ name: 'Id', dataType: 'Int64' }] });
  });

  it('answers 400 InvalidRequest and 404 ItemNotFound in the analytics shape', async () => {
    const { url } = await cloud();
    const bad = await call(datasets(url), { method: 'POST', body: { name: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { code: 'InvalidRequest', message: expect.stringContaining('tables') } });
    const missing = await call(`${datasets(url)}/0b7d5a2e-0000-4000-8000-000000000000`, { method: 'DELETE' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ItemNotFound');
  });
});

describe('database movement over HTTP', () => {
  const lcs = (url: string) => `${url}/databasemovement/v1`;

  it('refreshes once, follows the status to Completed after a restart, and logs the operation', async () => {
    const dataFile = join(dir, 'lcs.json');
    const first = await cloud({ dataFile, provisioningMs: 0 });
    const started = await call(`${lcs(first.url)}/refresh/project/${PROJECT}/source/${PROD}/target/${UAT}`, { method: 'POST', headers: VERSION });
    expect(started.status).toBe(200);
    expect(started.body.IsSuccess).toBe(true);
    await first.close();
    const second = await cloud({ dataFile });
    const id = started.body.OperationActivityId;
    const status = await call(`${lcs(second.url)}/fetchstatus/project/${PROJECT}/environment/${UAT}/operationactivity/${id}`, { headers: VERSION });
    expect(status.body).toMatchObject({ IsSuccess: true, OperationActivityId: id, OperationStatus: 'Completed' });
    const log = await call(`${lcs(second.url)}/_local/environment/${UAT}/operations`);
    expect(log.body.operations).toEqual([expect.objectContaining({ kind: 'refresh', activityId: id, sourceEnvironmentId: PROD })]);
  });

  it('answers 200 with IsSuccess false without the version header, and 401 without a token', async () => {
    const { url } = await cloud();
    const target = `${lcs(url)}/refresh/project/${PROJECT}/source/${PROD}/target/${UAT}`;
    const refused = await call(target, { method: 'POST' });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ IsSuccess: false, ErrorMessage: expect.stringContaining('x-vendor-version') });
    expect((await call(target, { method: 'POST', token: null, headers: VERSION })).status).toBe(401);
  });
});

describe('eventstreams over HTTP', () => {
  it('follows absolute continuationUri links through every page of the demo workspace', async () => {
    const { url } = await cloud();
    let next: string | undefined = `${url}/v1/workspaces/${DEMO_WORKSPACE_ID}/eventstreams`;
    const names: string[] = [];
    let pages = 0;
    while (next) {
      const page = await call(next);
      expect(page.status).toBe(200);
      expect(page.headers.get('requestid')).toBeTruthy();
      names.push(...page.body.value.map((e: { displayName: string }) => e.displayName));
      next = page.body.continuationUri;
      pages += 1;
    }
    expect(pages).toBeGreaterThan(2);
    expect(names.length).toBeGreaterThan(100);
    expect(names).toContain('orders-stream');
  });

  it('answers 404 WorkspaceNotFound in the Fabric shape', async () => {
    const { url } = await cloud();
    const res = await call(`${url}/v1/workspaces/00000000-0000-4000-8000-000000000000/eventstreams`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errorCode: 'WorkspaceNotFound', isRetriable: false, requestId: res.headers.get('requestid') });
  });
});

describe('conversation connector over HTTP', () => {
  const conv = (url: string, id = '19:ops-alerts') => `${url}/v3/conversations/${encodeURIComponent(id)}`;

  it('sends, updates and reads back a conversation, with X-Correlating-OperationId on every answer', async () => {
    const { url } = await cloud();
    const sent = await call(`${conv(url)}/activities`, { method: 'POST', body: { type: 'message', text: 'drift: none' } });
    expect(sent.status).toBe(201);
    expect(sent.headers.get('x-correlating-operationid')).toBeTruthy();
    const updated = await call(`${conv(url)}/activities/${sent.body.id}`, { method: 'PUT', body: { type: 'message', text: 'drift: 1' } });
    expect(updated.status).toBe(200);
    const read = await call(`${conv(url)}/activities`);
    expect(read.body.activities).toEqual([expect.objectContaining({ id: sent.body.id, text: 'drift: 1' })]);
    const unauthorised = await call(`${conv(url)}/members`, { token: null });
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.headers.get('x-correlating-operationid')).toBeTruthy();
    expect(unauthorised.body.error.code).toBeTruthy();
  });

  it('answers 405 with the error shape on a channel that cannot edit', async () => {
    const { url } = await cloud();
    const sent = await call(`${conv(url, '19:noedit-alerts')}/activities`, { method: 'POST', body: { type: 'message', text: 'x' } });
    const res = await call(`${conv(url, '19:noedit-alerts')}/activities/${sent.body.id}`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.body.error).toMatchObject({ message: 'The channel does not support this operation.', innerHttpError: { statusCode: 405 } });
  });

  it('serves an uploaded attachment and redirects its thumbnail to the original', async () => {
    const { url } = await cloud();
    const content = Buffer.from('%PDF-1.4 demo');
    const up = await call(`${conv(url)}/attachments`, {
      method: 'POST',
      body: { name: 'plan.pdf', type: 'application/pdf', originalBase64: content.toString('base64') },
    });
    expect(up.status).toBe(201);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const thumb = await fetch(`${url}/v3/attachments/${up.body.id}/views/thumbnail`, { headers: auth, redirect: 'manual' });
    expect(thumb.status).toBe(302);
    const original = await fetch(thumb.headers.get('location')!, { headers: auth });
    expect(original.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await original.arrayBuffer()).equals(content)).toBe(true);
  });

  it('serves the pre-signed redirect target without a token (as SDK clients follow it), but nothing else', async () => {
    const { url } = await cloud();
    const content = Buffer.from('thumbnail bytes');
    const up = await call(`${conv(url)}/attachments`, {
      method: 'POST',
      body: { name: 't.bin', type: 'application/octet-stream', originalBase64: content.toString('base64') },
    });
    const thumb = await fetch(`${url}/v3/attachments/${up.body.id}/views/thumbnail`, { headers: { authorization: `Bearer ${TOKEN}` }, redirect: 'manual' });
    const signed = await fetch(thumb.headers.get('location')!);
    expect(signed.status).toBe(200);
    expect(Buffer.from(await signed.arrayBuffer()).equals(content)).toBe(true);
    const unsigned = await fetch(`${url}/v3/attachments/${up.body.id}/views/original`);
    expect(unsigned.status).toBe(401);
  });
});
