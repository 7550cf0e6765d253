// Answers are checked before they are believed: HTML, wrong shapes, other names, huge and dripping bodies (issue 13, item 1).
import { describe, expect, it } from 'vitest';
import { createProviders, type ProviderOptions } from '../../src/providers/providers.js';
import { ServiceError } from '../../src/providers/service-error.js';
import { failure } from './helpers.js';
import { hostileServer, json, type Script } from './hostile-server.js';

const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const SIGN_IN = '<!DOCTYPE html><html><body><form action="/login">Sign in</form></body></html>';

async function providersFor(script: Script, extra: Partial<ProviderOptions> = {}) {
  const server = await hostileServer(script);
  const endpoints = { arm: server.url, graph: server.url, analytics: server.url, fabric: server.url, lcs: server.url, connector: server.url };
  const sleeps: number[] = [];
  const providers = createProviders({
    endpoints,
    defaultToken: 'hostile-test-token',
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 1,
    ...extra,
  });
  return { server, providers, sleeps };
}

describe('a 200 answer that is not what was asked for is an error naming service, URL and status', () => {
  it('an HTML sign-in page on a read', async () => {
    const { server, providers } = await providersFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(SIGN_IN);
    });
    const err = await failure(providers.arm.getContainerGroup(SUB, 'rg', 'web'));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.status).toBe(200);
    expect(err.code).toBe('InvalidAnswer');
    expect(err.message).toContain("service 'arm'");
    expect(err.message).toContain(`${server.url}/subscriptions/${SUB}/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroups/web`);
    expect(err.message).toMatch(/GET containerGroups\/web: 200 InvalidAnswer: the answer is text\/html, not JSON/);
    // A read's answer is bad, not lost: nothing was changed.
    expect(err.outcomeUnknown).toBe(false);
  });

  it('a 404 that is a page, not the service\'s JSON, does not mean "gone"', async () => {
    const { providers } = await providersFor((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>Not Found</html>');
    });
    const err = await failure(providers.arm.getContainerGroup(SUB, 'rg', 'web'));
    expect(err.message).toMatch(/GET containerGroups\/web: 404 InvalidAnswer: the answer is text\/html, not JSON/);
  });

  it('JSON null, which used to fail with "Cannot read properties of null"', async () => {
    const { providers } = await providersFor((_req, res) => json(res, 200, null));
    const err = await failure(providers.graph.getAuthContext('c1'));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.message).toMatch(/expected an authentication context \(a JSON object\), got null/);
  });

  it('a group of another name', async () => {
    const { providers } = await providersFor((_req, res) => json(res, 200, { name: 'other', properties: {} }));
    const err = await failure(providers.arm.getContainerGroup(SUB, 'rg', 'web'));
    expect(err.message).toMatch(/asked for 'web' but the answer's name is 'other'/);
  });

  it('a group without the location or containers a diff reads (it would plan a replace)', async () => {
    const { providers } = await providersFor((req, res) =>
      json(
        res,
        200,
        req.url?.includes('/web?') ? { name: 'web', properties: { osType: 'Linux' } } : { name: 'api', location: 'westeurope', properties: { containers: {} } },
      ),
    );
    expect((await failure(providers.arm.getContainerGroup(SUB, 'rg', 'web'))).message).toMatch(/expected a text in 'location', got empty/);
    expect((await failure(providers.arm.getContainerGroup(SUB, 'rg', 'api'))).message).toMatch(/expected an array in 'containers', got an object/);
  });

  it('a dataset of another id, and a create answered without an id', async () => {
    const { providers } = await providersFor((req, res) =>
      req.method === 'GET' ? json(res, 200, { id: 'd-other', name: 'sales' }) : json(res, 201, { name: 'sales' }),
    );
    expect((await failure(providers.analytics.getDataset('ws', 'd1'))).message).toMatch(/asked for 'd1' but the answer's id is 'd-other'/);
    const created = await failure(providers.analytics.createDataset('ws', { name: 'sales', tables: [] }));
    expect(created.message).toMatch(/expected a text in 'id'/);
    // The POST may have created the dataset: the caller must look before sending it again.
    expect(created.outcomeUnknown).toBe(true);
  });

  it('a listing without its array is an error, never an empty list', async () => {
    const { providers } = await providersFor((_req, res) => json(res, 200, { items: [] }));
    expect((await failure(providers.fabric.listEventstreams('ws'))).message).toMatch(/expected an array in 'value', got empty/);
    expect((await failure(providers.arm.listUsage(SUB, 'westeurope'))).message).toMatch(/expected an array in 'value'/);
    expect((await failure(providers.analytics.getTables('ws', 'd1'))).message).toMatch(/expected an array in 'value'/);
  });

  it('connector answers without the id or list moor reads', async () => {
    const { providers } = await providersFor((req, res) => json(res, 200, req.url?.endsWith('/members') ? { members: [] } : { ok: true }));
    expect((await failure(providers.connector.sendToConversation('conv', { type: 'message' }))).message).toMatch(/expected a text in 'id'/);
    expect((await failure(providers.connector.getConversationMembers('conv'))).message).toMatch(/expected a member list \(a JSON array\), got an object/);
  });

  it('an eventstream of another workspace', async () => {
    const { providers } = await providersFor((_req, res) => json(res, 200, { value: [{ id: 'e1', displayName: 'orders', workspaceId: 'ws-other' }] }));
    expect((await failure(providers.fabric.listEventstreams('ws-1'))).message).toMatch(
      /asked for 'ws-1' but the answer's eventstream #1 workspaceId is 'ws-other'/,
    );
  });

  it('a usage entry without its numbers', async () => {
    const { providers } = await providersFor((_req, res) => json(res, 200, { value: [{ name: { value: 'ContainerGroups' }, currentValue: '3' }] }));
    expect((await failure(providers.arm.listUsage(SUB, 'westeurope'))).message).toMatch(/usage entry #1 lacks name\.value, currentValue or limit/);
  });

  it('a listed container group without its location (the diff would plan a replace)', async () => {
    const { providers } = await providersFor((_req, res) => json(res, 200, { value: [{ name: 'web', properties: { containers: [] } }] }));
    expect((await failure(providers.arm.listContainerGroups(SUB, 'rg'))).message).toMatch(
      /container group #1 of the list lacks its name, location or properties\.containers/,
    );
  });

  it('a database-movement result without IsSuccess', async () => {
    const { providers } = await providersFor((_req, res) => json(res, 200, { OperationActivityId: 'a1' }));
    const err = await failure(providers.lcs.exportDatabase('p', 'env', 'b'));
    expect(err.message).toMatch(/expected true or false in 'IsSuccess'/);
    expect(err.outcomeUnknown).toBe(true);
  });

  it('a successful status read without OperationStatus is not "in progress"', async () => {
    const { providers } = await providersFor((_req, res) => json(res, 200, { IsSuccess: true, OperationActivityId: 'a1' }));
    expect((await failure(providers.lcs.fetchStatus('p', 'env', 'a1'))).message).toMatch(/expected a text in 'OperationStatus'/);
  });

  it('an operation status without a status is not "still running"', async () => {
    const { providers } = await providersFor((req, res) =>
      req.method === 'PUT'
        ? json(res, 201, { name: 'web', properties: { provisioningState: 'Creating' } }, { 'azure-asyncoperation': `http://${req.headers.host}/op/1` })
        : json(res, 200, {}),
    );
    const err = await failure(providers.arm.putContainerGroup(SUB, 'rg', 'web', { location: 'westeurope' }));
    expect(err.message).toMatch(/expected a text in 'status'/);
  });
});

describe('bodies are bounded', () => {
  it('a body over the limit is cut off as an error', async () => {
    const { providers } = await providersFor((_req, res) => json(res, 200, { name: 'web', pad: 'x'.repeat(5000) }), { limits: { maxBodyBytes: 1024 } });
    const err = await failure(providers.arm.getContainerGroup(SUB, 'rg', 'web'));
    expect(err.message).toMatch(/the answer is larger than 1 KiB; moor stopped reading it/);
  });

  it('a body that never ends is cut off at the limit, without a content-length', async () => {
    let written = 0;
    const { providers } = await providersFor(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) written += chunk.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        res.write('{"name":"web","pad":"');
        pump();
      },
      { limits: { maxBodyBytes: 1024 * 1024 } },
    );
    const err = await failure(providers.arm.getContainerGroup(SUB, 'rg', 'web'));
    expect(err.message).toMatch(/larger than 1 MiB/);
    // Not retried: one answer too large is an answer, not a lost one.
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('a body that drips is cut off by the attempt timeout and not sent again', async () => {
    const { server, providers } = await providersFor(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"name":"web",');
        const timer = setInterval(() => {
          if (res.destroyed) clearInterval(timer);
          else res.write(' ');
        }, 20);
        res.on('close', () => clearInterval(timer));
      },
      { timeoutMs: 300 },
    );
    const err = await failure(providers.arm.getContainerGroup(SUB, 'rg', 'web'));
    expect(err.message).toMatch(/the answer did not finish within 300 ms/);
    expect(server.requests).toHaveLength(1);
  });
});
