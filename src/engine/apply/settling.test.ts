// A resource the service still carries out an earlier write of (Observed.inProgress): plan notes it
// as a no-op that waits, apply follows it through the kind before its dependents start.
import { describe, expect, test } from 'vitest';
import { UserError } from '../../core/diagnostics.js';
import type { Observed } from '../../core/kind.js';
import { FakeCloud, fakeCatalog, manifest, planAndApply, sentRequest } from '../testing/fake-kinds.js';
import type { StateDocument } from '../state/types.js';

const SPEC = { region: 'north' };
const STATE: StateDocument = {
  version: 1,
  serial: 3,
  resources: {
    'Thing/a': {
      kind: 'Thing',
      name: 'a',
      id: 'Thing/a',
      lastApplied: SPEC,
      outputs: { state: 'Pending' },
      pending: { action: 'create', since: 't' },
      updatedAt: 't',
    },
  },
};
const MANIFESTS = [manifest('Thing', 'a', SPEC), manifest('Thing', 'b', SPEC, { dependsOn: ['Thing/a'] })];

function provisioning(cloud: FakeCloud, ends: 'Succeeded' | 'Failed', found: 'Pending' | 'Failed' = 'Pending') {
  cloud.live.set('Thing/a', SPEC);
  return fakeCatalog(cloud, {
    read: async (_ctx, t): Promise<Observed | undefined> => {
      const spec = cloud.live.get(`Thing/${t.name}`);
      if (!spec) return undefined;
      const how = found === 'Pending' ? { inProgress: 'still provisioning (state Pending)' } : { failed: 'its provisioning ended Failed' };
      return t.name === 'a' ? { id: 'Thing/a', spec, outputs: { state: found }, ...how } : { id: `Thing/${t.name}`, spec, outputs: spec };
    },
    awaitSettled: async (ctx, current) => {
      sentRequest(ctx);
      cloud.call(`await ${current.id}`);
      if (ends === 'Failed') throw new UserError('the operation ended Failed');
      return { id: current.id, spec: current.spec, outputs: { state: 'Succeeded' } };
    },
  });
}

describe('a resource still being written at the service', () => {
  test('plans as a no-op that says apply waits; apply follows it, records its final outputs, then starts its dependent', async () => {
    const cloud = new FakeCloud();
    const { plan, outcomes, state } = await planAndApply(provisioning(cloud, 'Succeeded'), MANIFESTS, STATE);
    const a = plan.plan.changes.find((c) => c.address === 'Thing/a')!;
    expect(a).toMatchObject({
      action: 'no-op',
      inProgress: 'still provisioning (state Pending)',
      reason: 'still provisioning (state Pending): apply waits for it to finish before what depends on it starts',
      reasonCode: 'in-progress',
    });
    expect(plan.plan.diagnostics).toContainEqual(expect.objectContaining({ severity: 'warning', address: 'Thing/a' }));
    expect(cloud.calls).toEqual(['await Thing/a', 'create Thing/b']);
    expect(outcomes.find((o) => o.address === 'Thing/a')).toMatchObject({ action: 'no-op', status: 'done' });
    expect(state.resources['Thing/a'].outputs).toEqual({ state: 'Succeeded' });
    expect(state.resources['Thing/a'].pending).toBeUndefined();
  });

  test('when it ends failed, it fails and its dependent is skipped', async () => {
    const cloud = new FakeCloud();
    const { outcomes, state } = await planAndApply(provisioning(cloud, 'Failed'), MANIFESTS, STATE);
    expect(outcomes.find((o) => o.address === 'Thing/a')).toMatchObject({ status: 'failed', error: 'the operation ended Failed', followsEarlierWrite: true });
    expect(outcomes.find((o) => o.address === 'Thing/b')).toMatchObject({ status: 'skipped', rootCause: 'Thing/a' });
    expect(cloud.calls).toEqual(['await Thing/a']);
    expect(state.resources['Thing/a'].pending).toBeDefined();
  });

  test('found ended failed, it is not taken as applied: plan says apply fails it, and apply does', async () => {
    const cloud = new FakeCloud();
    const { plan, outcomes } = await planAndApply(provisioning(cloud, 'Failed', 'Failed'), MANIFESTS, STATE);
    expect(plan.plan.changes.find((c) => c.address === 'Thing/a')?.reason).toMatch(
      /^its provisioning ended Failed: apply reports it failed and skips what depends on it; change the manifest or apply --replace Thing\/a/,
    );
    expect(plan.plan.changes.find((c) => c.address === 'Thing/a')?.reasonCode).toBe('write-failed');
    expect(outcomes.find((o) => o.address === 'Thing/b')).toMatchObject({ status: 'skipped', rootCause: 'Thing/a' });
  });

  test('a kind that cannot wait (no awaitSettled) plans a plain no-op, as before', async () => {
    const cloud = new FakeCloud();
    const catalog = provisioning(cloud, 'Succeeded');
    const kind = catalog.kindNamed('Thing');
    if (kind?.category === 'resource') delete (kind.resource as { awaitSettled?: unknown }).awaitSettled;
    const { plan } = await planAndApply(catalog, MANIFESTS, STATE);
    expect(plan.plan.changes.find((c) => c.address === 'Thing/a')).not.toHaveProperty('inProgress');
  });
});
