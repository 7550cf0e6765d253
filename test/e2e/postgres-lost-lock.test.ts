// With PostgreSQL state: a run whose lock session `moor state unlock --force` ended sends no further
// write request, so it cannot overwrite what a newer run makes (in the postgres project: a server is started).
import { afterEach, expect, test } from 'vitest';
import { describeWithPostgres, workspaceUrl } from '../state/postgres-env.js';
import { testClock } from '../support/test-clock.js';
import { ARM_PATH, cloudRequest, groupManifest, moor, startCloud, workdir, type Cloud } from './harness.js';
import { moorProcess } from './processes.js';

describeWithPostgres('lost PostgreSQL state lock', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test('a run whose lock session unlock --force ended creates no further group', async () => {
    // Provisioning lasts an hour of the cloud's test clock: the first group is still provisioning when the
    // lock goes, however slow the machine, and ends when the test moves the clock on.
    const clock = testClock();
    const c = (cloud = await startCloud({ clock, env: { MOOR_PROVISIONING_MS: '3600000' } }));
    const state = workspaceUrl('e2e-fence');
    const names = ['one', 'two', 'three'];
    // A chain (each waits for the one before): a waiting change holds no request slot, so independent
    // changes would all be sent at once.
    const chained = (n: string, i: number) =>
      i === 0 ? groupManifest(n) : groupManifest(n).replace(`  name: ${n}\n`, `  name: ${n}\n  dependsOn: [ContainerGroup/${names[i - 1]}]\n`);
    const dir = workdir({ 'm/secret.txt': 's3cret-value\n', ...Object.fromEntries(names.map((n, i) => [`m/${n}.yaml`, chained(n, i)])) });
    const first = moorProcess(dir, c, ['apply', 'm', '--auto-approve', '--parallelism', '1'], { MOOR_STATE: state });
    const exists = async (name: string) => (await cloudRequest(c, 'GET', ARM_PATH(name))).status === 200;
    const created = async () => (await Promise.all(names.map(exists))).filter(Boolean).length;
    while ((await created()) === 0) {
      if (first.child.exitCode !== null) throw new Error(`apply ended before a group was created: ${(await first).stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const unlocked = await moor(dir, c, ['state', 'unlock', '--force'], { MOOR_STATE: state });
    expect(unlocked.code, unlocked.stderr).toBe(0);
    clock.advance(3_600_000); // the first group is provisioned: the run would write its record, then the next PUT

    const result = await first;
    const out = result.stdout + result.stderr;
    expect(result.code, out).toBe(1);
    // The first group's own record is refused (its dependents are then skipped), or a next write is fenced.
    expect(out).toMatch(/lost the state lock \(the database session holding it ended|the connection holding the state lock on .* ended .* the lock is lost/);
    expect(await created(), out).toBe(1);
  }, 60_000);
});
