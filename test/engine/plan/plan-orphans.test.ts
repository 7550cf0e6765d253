// What plan does with state records whose manifests are gone: protect holds for every kind,
// job records are kept, and the mass-delete guard counts resources only.
import { describe, expect, test } from 'vitest';
import type { KindContext } from '../../../src/core/kind.js';
import type { ResourceRecord, StateDocument } from '../../../src/engine/state/types.js';
import { makePlan } from '../../../src/engine/plan/planner.js';
import { BUILT_IN_KINDS } from '../../../src/resources/registry.js';

const record = (kind: string, extra: Partial<ResourceRecord> = {}): ResourceRecord => ({ kind, name: 'x', id: 'x', lastApplied: {}, updatedAt: '', ...extra });
const ctx = { providers: {}, log: () => undefined } as unknown as KindContext; // no manifests: nothing is read

async function plan(resources: Record<string, ResourceRecord>, options: { prune?: boolean; allowMassDelete?: boolean } = {}) {
  const state: StateDocument = { version: 1, serial: 1, resources };
  const { plan: p } = await makePlan({
    manifests: [],
    kinds: BUILT_IN_KINDS,
    state,
    ctx,
    resolve: { env: {} },
    parallelism: 1,
    prune: options.prune ?? true,
    allowMassDelete: options.allowMassDelete,
  });
  return {
    deletes: p.changes.filter((c) => c.action === 'delete').map((c) => c.address),
    diagnostics: p.diagnostics.map((d) => `${d.severity} ${d.address ?? ''} ${d.message}`),
  };
}

describe('pruning what left the manifests', () => {
  test('a protected job is refused like a protected resource', async () => {
    const { diagnostics } = await plan({ 'DatabaseExport/golden': record('DatabaseExport', { protect: true, runs: [] }) });
    expect(diagnostics).toEqual([expect.stringMatching(/^error DatabaseExport\/golden is protected/)]);
  });

  test("an unprotected job's record is kept (no delete), with a warning", async () => {
    const { deletes, diagnostics } = await plan({ 'DatabaseRefresh/uat': record('DatabaseRefresh', { runs: [] }) });
    expect(deletes).toEqual([]);
    expect(diagnostics).toEqual([expect.stringContaining('warning DatabaseRefresh/uat is a job no longer in the manifests: prune keeps its run history')]);
  });

  test('no manifests: the deletes are shown and refused unless allowed', async () => {
    const resources = { 'AuthContext/a': record('AuthContext'), 'AuthContext/b': record('AuthContext') };
    const refused = await plan(resources);
    expect(refused.deletes).toEqual(['AuthContext/a', 'AuthContext/b']);
    expect(refused.diagnostics).toEqual([expect.stringContaining('error  --prune would delete 2 of the 2 resources in state, and no manifests were found')]);
    expect((await plan(resources, { allowMassDelete: true })).diagnostics).toEqual([]);
  });

  test('deletes are listed as apply runs them: dependents (as state recorded) before what they depend on', async () => {
    const resources = {
      'ContainerGroup/db': record('ContainerGroup'),
      'ContainerGroup/app': record('ContainerGroup', { dependsOn: ['ContainerGroup/db'] }),
      'AuthContext/other': record('AuthContext'),
      'AuthContext/auth': record('AuthContext', { dependsOn: ['ContainerGroup/app'] }),
    };
    const { deletes } = await plan(resources, { allowMassDelete: true });
    expect(deletes).toEqual(['AuthContext/auth', 'ContainerGroup/app', 'ContainerGroup/db', 'AuthContext/other']);
  });

  test('without --prune nothing is deleted and only resources are reported', async () => {
    const { deletes, diagnostics } = await plan({ 'AuthContext/a': record('AuthContext'), 'DatabaseRefresh/uat': record('DatabaseRefresh') }, { prune: false });
    expect(deletes).toEqual([]);
    expect(diagnostics).toEqual([expect.stringContaining('warning AuthContext/a is in state but no longer in the manifests')]);
  });
});
