// The clients and handlers against the real local cloud over HTTP: the same requests the real services would get.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCloud, type LocalCloud } from '../../src/localcloud/server.js';
import { createProviders, type Providers } from '../../src/providers/providers.js';
import { ServiceError } from '../../src/providers/service-error.js';
import type { KindContext } from '../../src/core/kind.js';
import type { ServiceName } from '../../src/core/services.js';
import { resource as containerGroup } from '../../src/resources/container-group/handler.js';
import { resource as pushDataset } from '../../src/resources/push-dataset/handler.js';
import { job as databaseExport } from '../../src/resources/database-export/handler.js';
import { check } from '../../src/resources/check/handler.js';
import { failure } from './helpers.js';

const TOKEN = 'lc-test-token';
const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const WORKSPACE = '5d9e2b1c-7a4f-4e3b-9c2d-1f0a8b7c6d5e';
let cloud: LocalCloud;
let providers: Providers;
let ctx: KindContext;
let endpoints: Record<ServiceName, string>;

beforeAll(async () => {
  cloud = await startLocalCloud({ port: 0, token: TOKEN, provisioningMs: 30 });
  endpoints = { arm: cloud.url, graph: cloud.url, analytics: cloud.url, fabric: cloud.url, lcs: cloud.url, connector: cloud.url };
  providers = createProviders({ endpoints, defaultToken: TOKEN, pollIntervalMs: 10 });
  ctx = { providers, log: () => undefined, pollIntervalMs: 10 };
});

afterAll(async () => {
  await cloud.close();
});

const groupSpec = {
  subscriptionId: SUB,
  resourceGroup: 'rg-lc',
  location: 'westeurope',
  properties: { osType: 'Linux', containers: [{ name: 'app', properties: { image: 'nginx:1.27', resources: { requests: { cpu: 1, memoryInGB: 1.5 } } } }] },
};

describe('against the local cloud', () => {
  it('refuses a wrong token with a 401 ServiceError that does not show the token', async () => {
    const wrong = createProviders({ endpoints, defaultToken: 'not-the-token' });
    const err = await failure(wrong.arm.getContainerGroup(SUB, 'rg', 'x'));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.status).toBe(401);
    expect(err.message).not.toContain('not-the-token');
  });

  it('creates, reads and deletes a container group through the handler, waiting for provisioning', async () => {
    const created = await containerGroup.create(ctx, 'lc-web', groupSpec);
    expect(created.outputs).toMatchObject({ properties: { provisioningState: 'Succeeded' } });
    const read = await containerGroup.read(ctx, { name: 'lc-web', spec: groupSpec, recordedId: created.id });
    expect(read?.spec).toMatchObject({ subscriptionId: SUB, resourceGroup: 'rg-lc', name: 'lc-web', location: 'westeurope' });
    await containerGroup.delete(ctx, created.id, groupSpec);
    await expect(containerGroup.read(ctx, { name: 'lc-web', spec: groupSpec })).resolves.toBeUndefined();
  });

  it('reads usage and name availability', async () => {
    const usage = await providers.arm.listUsage(SUB, 'westeurope');
    expect(usage.some((u) => u.name.value === 'ContainerGroups')).toBe(true);
    const invalid = await providers.arm.checkNameAvailability(SUB, 'Bad_Name');
    expect(invalid).toMatchObject({ available: false, reason: 'Invalid' });
    const quota = await check.evaluate(ctx, { quota: { subscriptionId: SUB, location: 'westeurope', minFree: 1 } });
    expect(quota.passed).toBe(true);
  });

  it('patches, reads and deletes an auth context', async () => {
    await providers.graph.patchAuthContext('c42', { displayName: 'LC', description: 'local', isAvailable: true });
    await expect(providers.graph.getAuthContext('c42')).resolves.toMatchObject({ id: 'c42', displayName: 'LC', isAvailable: true });
    await providers.graph.deleteAuthContext('c42');
    await expect(providers.graph.getAuthContext('c42')).resolves.toBeUndefined();
    await providers.graph.deleteAuthContext('c42');
  });

  it('creates a push dataset, changes a table in place and deletes it', async () => {
    const spec = { workspaceId: WORKSPACE, name: 'lc-sales', tables: [{ name: 'Orders', columns: [{ name: 'id', dataType: 'Int64' }] }] };
    const created = await pushDataset.create(ctx, 'lc-sales', spec);
    expect(created.spec).toMatchObject({ name: 'lc-sales', tables: [{ name: 'Orders' }] });
    const desired = {
      ...spec,
      tables: [
        {
          name: 'Orders',
          columns: [
            { name: 'id', dataType: 'Int64' },
            { name: 'total', dataType: 'Double' },
          ],
        },
      ],
    };
    const updated = await pushDataset.update(ctx, 'lc-sales', desired, created, [['tables', 0, 'columns', 1]]);
    expect((updated.spec.tables as { columns: unknown[] }[])[0].columns).toHaveLength(2);
    await pushDataset.delete(ctx, created.id, spec);
    await expect(pushDataset.read(ctx, { name: 'lc-sales', spec, recordedId: created.id })).resolves.toBeUndefined();
  });

  it('lists every eventstream of the demo workspace across pages', async () => {
    const items = await providers.fabric.listEventstreams(WORKSPACE);
    expect(items.length).toBeGreaterThan(100);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  });

  it('runs an export job to completion through the status endpoint', async () => {
    const checkpoints: unknown[] = [];
    const rec = await databaseExport.run(
      ctx,
      {
        projectId: '1234567',
        environmentId: 'a1b2c3d4-0000-4000-8000-000000000003',
        backupName: 'lc-backup',
        revision: '1',
      },
      undefined,
      async (r) => {
        checkpoints.push(r);
      },
    );
    expect(rec.status).toBe('succeeded');
    expect(checkpoints.length).toBeGreaterThan(2);
  });

  it('lists the paged members of the demo conversation and posts a message', async () => {
    const members = await providers.connector.getConversationPagedMembers('19:ops-alerts', 2);
    expect(members.length).toBe(7);
    const sent = await providers.connector.sendToConversation('19:ops-alerts', { type: 'message', text: 'hello', from: { id: '28:moor-bot' } });
    expect(typeof sent.id).toBe('string');
  });
});
