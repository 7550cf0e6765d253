// Plan reads container groups by listing each resource group (following nextLink), not one GET per group.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startLocalCloud, type LocalCloud } from '../../src/localcloud/server.js';
import { createProviders } from '../../src/providers/providers.js';
import type { MoorEvent, MoorEventOf } from '../../src/core/events.js';
import { RequestScheduler } from '../../src/providers/request-scheduler.js';
import { loadAndValidate } from '../../src/engine/validate/index.js';
import { makePlan } from '../../src/engine/plan/planner.js';
import { emptyState } from '../../src/engine/state/state-document.js';
import { SERVICE_NAMES } from '../../src/core/services.js';
import { BUILT_IN_KINDS } from '../../src/resources/registry.js';
import { groupManifest } from '../e2e/harness.js';

const TOKEN = 'listing-test-token';
/** The harness's group in resource group `rg` (its secret comes from secret.txt beside it). */
const group = (name: string, rg: string): string => groupManifest(name, { resourceGroup: rg });

describe('plan reads by listing', () => {
  let cloud: LocalCloud;
  beforeAll(async () => {
    cloud = await startLocalCloud({ port: 0, token: TOKEN, provisioningMs: 0 });
  });
  afterAll(async () => {
    await cloud.close();
  });

  test('a no-op plan of 90 groups in two resource groups sends a few paged lists, no GET per group', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'moor-listing-'));
    writeFileSync(join(dir, 'secret.txt'), 'listing-secret\n');
    const docs = Array.from({ length: 90 }, (_, i) => group(`g${i}`, i < 70 ? 'rg-big' : 'rg-small'));
    writeFileSync(join(dir, 'groups.yaml'), docs.join('---\n'));
    // One lone group in a third resource group: a GET is cheaper than a list for it.
    writeFileSync(join(dir, 'lone.yaml'), group('lone', 'rg-lone'));
    const events: MoorEvent[] = [];
    const endpoints = Object.fromEntries(SERVICE_NAMES.map((s) => [s, cloud.url])) as Record<(typeof SERVICE_NAMES)[number], string>;
    const providers = createProviders({ endpoints, defaultToken: TOKEN, scheduler: new RequestScheduler({ concurrency: 10 }), events: (e) => events.push(e) });
    const ctx = { providers, log: () => undefined };
    const kinds = BUILT_IN_KINDS;
    const { manifests } = await loadAndValidate([dir], kinds, { cwd: process.cwd() });
    const plan = () => makePlan({ manifests, kinds, state: emptyState(), ctx, resolve: { env: {} }, parallelism: 10 });

    const first = await plan();
    expect(first.plan.changes.filter((c) => c.action === 'create')).toHaveLength(91);
    for (const s of first.steps) if (s.kind.category === 'resource') await s.kind.resource.create(ctx, s.manifest!.name, s.desired!);

    events.length = 0;
    const again = await plan();
    // Adopted from what the lists returned: every group found, nothing to change.
    expect(again.plan.changes.map((c) => c.action).filter((a) => a !== 'no-op')).toEqual([]);
    const gets = events.filter((e): e is MoorEventOf<'request_answered'> => e.type === 'request_answered' && e.method === 'GET');
    // 50 per page: two pages for the 70 groups of rg-big, one for rg-small, and one GET for the lone group.
    expect(gets.filter((e) => e.path.endsWith('/containerGroups'))).toHaveLength(3);
    expect(gets.filter((e) => !e.path.endsWith('/containerGroups')).map((e) => e.path)).toEqual([expect.stringContaining('/containerGroups/lone')]);
  });
});
