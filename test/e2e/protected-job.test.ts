// metadata.protect on a destructive job: its run (a refresh overwrites its target) goes ahead only
// when apply names it with --allow-destructive, also through a saved plan that recorded it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV, moor, operationsOf, refreshManifest, startCloud, workdir, writeFile, type Cloud } from './harness.js';

const ADDRESS = 'DatabaseRefresh/uat-from-prod';
const protectedRefresh = (revision: string) =>
  refreshManifest('uat-from-prod', { revision }).replace('  name: uat-from-prod', '  name: uat-from-prod\n  protect: true');

describe('a protected destructive job', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it('runs only when apply names it, directly or in a saved plan', async () => {
    const dir = workdir({ 'm/refresh.yaml': protectedRefresh('r1') });
    const refused = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(
      new RegExp(
        `m/refresh\\.yaml:\\d+:\\d+: error: ${ADDRESS} is protected \\(metadata\\.protect\\): its destructive run goes ahead only when apply names it, --allow-destructive ${ADDRESS} \\(never run \\(revision r1\\)\\)`,
      ),
    );
    expect(await operationsOf(cloud, ENV.uat)).toHaveLength(0);

    // Naming another address is not naming this one.
    expect((await moor(dir, cloud, ['apply', 'm', '--auto-approve', '--allow-destructive', 'DatabaseRefresh/other'])).code).toBe(1);
    const saved = await moor(dir, cloud, ['plan', 'm', '--out', 'p.json', '--allow-destructive', ADDRESS]);
    expect(saved.code, saved.stdout + saved.stderr).toBe(0);
    const applied = await moor(dir, cloud, ['apply', '--plan', 'p.json']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(await operationsOf(cloud, ENV.uat)).toHaveLength(1);

    // A revision bump plans the run again; drift is not failed by the refusal (it is no drift).
    writeFile(dir, 'm/refresh.yaml', protectedRefresh('r2'));
    expect((await moor(dir, cloud, ['drift', 'm'])).code).toBe(0);
    const bumped = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
    expect(bumped.code).toBe(1);
    expect(bumped.stdout).toContain(`--allow-destructive ${ADDRESS} (revision changed from r1 to r2)`);
    expect(await operationsOf(cloud, ENV.uat)).toHaveLength(1);
    const named = await moor(dir, cloud, ['apply', 'm', '--auto-approve', '--allow-destructive', ADDRESS]);
    expect(named.code, named.stdout + named.stderr).toBe(0);
    expect(await operationsOf(cloud, ENV.uat)).toHaveLength(2);
  }, 180_000); // nine CLI runs and two refreshes
});
