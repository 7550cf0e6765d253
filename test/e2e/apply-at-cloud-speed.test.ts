// Apply at cloud speed, over HTTP with the built CLI: groups waiting on their provisioning hold no
// slot, a dependent chain runs beside them, each group is created once and state is complete.
// Provisioning takes 300 ms: the chain of five waits 1.5 s of it, and the 100 groups poll a third as often as at 1 s.
import { afterEach, describe, expect, test } from 'vitest';
import { groupManifest, listedGroups, moor, readState, startCloud, SUB, workdir, type Cloud } from './harness.js';

const CHAIN_SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a22';

describe('apply at cloud speed', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test('100 groups with provisioning time apply while a chain of 5 runs: each created once, state complete', async () => {
    cloud = await startCloud({ latencyMs: 5, env: { MOOR_PROVISIONING_MS: '300' } });
    const leaves = Array.from({ length: 100 }, (_, i) => groupManifest(`leaf-${String(i).padStart(3, '0')}`, { cpu: 0.5 }));
    const chain = Array.from({ length: 5 }, (_, i) =>
      groupManifest(`chain-${i}`, { cpu: 0.5 })
        .replace(SUB, CHAIN_SUB)
        .replace(/name: (chain-\d)\n/, i > 0 ? `name: $1\n  dependsOn: [ContainerGroup/chain-${i - 1}]\n` : 'name: $1\n'),
    );
    const dir = workdir({ 'm/secret.txt': 's', 'm/leaves.yaml': leaves.join('---\n'), 'm/chain.yaml': chain.join('---\n') });

    const applied = await moor(dir, cloud, ['apply', 'm', '--auto-approve', '--parallelism', '10']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('105 created');

    const groups = [...(await listedGroups(cloud, 'rg-e2e', SUB)), ...(await listedGroups(cloud, 'rg-e2e', CHAIN_SUB))];
    expect(groups).toHaveLength(105);
    // One PUT each: a second PUT of a group would have moved its lastModifiedAt past its createdAt.
    expect(groups.filter((g) => g.systemData.createdAt !== g.systemData.lastModifiedAt)).toEqual([]);
    const state = await readState(dir);
    const records = Object.values(state.resources);
    expect(records).toHaveLength(105);
    expect(records.filter((r) => !r.id || r.pending)).toEqual([]);
    // The chain ran in order: each link was created after the one it depends on had finished provisioning.
    const created = (name: string) => Date.parse(groups.find((g) => g.name === name)!.systemData.createdAt);
    for (let i = 1; i < 5; i++) expect(created(`chain-${i}`)).toBeGreaterThan(created(`chain-${i - 1}`));

    const again = await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
