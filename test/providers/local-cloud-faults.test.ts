// The transport against the local cloud's injected faults (500, 503, 429, dropped connections): everything converges, nothing duplicates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCloud, type LocalCloud } from '../../src/localcloud/server.js';
import { seededRandom } from '../../src/localcloud/faults.js';
import type { ServiceName } from '../../src/core/services.js';
import { createProviders, type Providers } from '../../src/providers/providers.js';
import type { KindContext } from '../../src/core/kind.js';
import { resource as containerGroup } from '../../src/resources/container-group/handler.js';
import { resource as pushDataset } from '../../src/resources/push-dataset/handler.js';

const TOKEN = 'fault-test-token';
const SUB = '0d3c2b1a-1111-4222-8333-444455556666';
const WORKSPACE = '5d9e2b1c-7a4f-4e3b-9c2d-1f0a8b7c6d5e';
let cloud: LocalCloud;
let providers: Providers;
let ctx: KindContext;
let retries = 0;

beforeAll(async () => {
  cloud = await startLocalCloud({ port: 0, token: TOKEN, provisioningMs: 20, failRate: 0.3, random: seededRandom(42) });
  const endpoints = Object.fromEntries(['arm', 'graph', 'analytics', 'fabric', 'lcs', 'connector'].map((s) => [s, cloud.url])) as Record<ServiceName, string>;
  // Real waits, but short: Retry-After of the fault injector would otherwise cost seconds.
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.min(ms, 5)));
  providers = createProviders({
    endpoints,
    defaultToken: TOKEN,
    pollIntervalMs: 10,
    maxAttempts: 12,
    sleep,
    random: seededRandom(7),
    events: (e) => {
      if (e.type === 'request_retried' || e.type === 'throttled') retries++;
    },
  });
  ctx = { providers, log: () => undefined };
});

afterAll(async () => {
  await cloud.close();
});

describe('with a 30% fault rate', () => {
  it('creates 12 container groups, each exactly once', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `fault-${i}`);
    const spec = (name: string) => ({
      subscriptionId: SUB,
      resourceGroup: 'rg-faults',
      name,
      location: 'westeurope',
      properties: { osType: 'Linux', containers: [{ name: 'app', properties: { image: 'nginx', resources: { requests: { cpu: 0.5, memoryInGB: 0.5 } } } }] },
    });
    const created = [];
    for (const n of names) created.push(await containerGroup.create(ctx, n, spec(n)));
    expect(created.map((c) => c.outputs.properties)).toEqual(names.map(() => expect.objectContaining({ provisioningState: 'Succeeded' })));
    const usage = await providers.arm.listUsage(SUB, 'westeurope');
    expect(usage.find((u) => u.name.value === 'ContainerGroups')?.currentValue).toBe(12);
  });

  it('creates push datasets without a duplicate, whatever answers are lost', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `fault-ds-${i}`);
    for (const name of names) {
      await pushDataset.create(ctx, name, { workspaceId: WORKSPACE, name, tables: [{ name: 'T', columns: [{ name: 'id', dataType: 'Int64' }] }] });
    }
    const all = await providers.analytics.listDatasets(WORKSPACE);
    for (const name of names) expect(all.filter((d) => d.name === name)).toHaveLength(1);
    expect(retries).toBeGreaterThan(5);
  });
});
