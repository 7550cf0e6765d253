// Database refresh and export jobs through the CLI: once per revision, export first, failures not
// retried, and a kill -9 while following resumes the same operation. The local cloud's operation
// log (local-only) proves how many operations each environment really took.
import { afterEach, describe, expect, test } from 'vitest';
import { testClock } from '../support/test-clock.js';
import { ENV, exportManifest, moor, operationsOf, readState, refreshManifest, startCloud, workdir, writeFile, type Cloud } from './harness.js';
import { moorProcess } from './processes.js';

interface Change {
  address: string;
  action: string;
  destructive: boolean;
}
const changesOf = (stdout: string): Change[] => JSON.parse(stdout).changes;

describe('database jobs', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test('each job runs exactly once per revision across repeated applies, and again when the revision changes', async () => {
    const c = (cloud = await startCloud());
    const dir = workdir({
      'm/refresh.yaml': refreshManifest('uat-from-prod', { revision: 'r1' }),
      'm/export.yaml': exportManifest('test-golden', { backupName: 'golden-r1', revision: 'r1' }),
    });
    const run = (...args: string[]) => moor(dir, c, args);
    const plan = await run('plan', 'm', '--output', 'json');
    expect(changesOf(plan.stdout)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ address: 'DatabaseRefresh/uat-from-prod', action: 'run', destructive: true }),
        expect.objectContaining({ address: 'DatabaseExport/test-golden', action: 'run', destructive: false }),
      ]),
    );
    const text = await run('plan', 'm');
    expect(text.stdout).toMatch(/! DatabaseRefresh\/uat-from-prod/);
    expect(text.stdout).toContain('Plan: 0 to create, 0 to update, 0 to replace, 0 to delete, 2 to run.');

    const first = await run('apply', 'm', '--auto-approve');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    for (let i = 0; i < 2; i++) {
      const again = await run('apply', 'm', '--auto-approve');
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain('No changes.');
    }
    const uat = await operationsOf(c, ENV.uat);
    expect(uat.map((o) => [o.kind, o.status])).toEqual([['refresh', 'Completed']]);
    expect((await operationsOf(c, ENV.test)).map((o) => [o.kind, o.backupName, o.status])).toEqual([['export', 'golden-r1', 'Completed']]);
    const state = await readState(dir);
    const runs = state.resources['DatabaseRefresh/uat-from-prod'].runs;
    expect(runs.at(-1)).toMatchObject({ revision: 'r1', status: 'succeeded' });
    expect(JSON.stringify(runs.at(-1))).toContain(uat[0].activityId);

    writeFile(dir, 'm/refresh.yaml', refreshManifest('uat-from-prod', { revision: 'r2' }));
    const changed = changesOf((await run('plan', 'm', '--output', 'json')).stdout);
    expect(changed.find((ch) => ch.address === 'DatabaseRefresh/uat-from-prod')?.action).toBe('run');
    expect(changed.find((ch) => ch.address === 'DatabaseExport/test-golden')?.action).toBe('no-op');
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect((await operationsOf(c, ENV.uat)).map((o) => o.kind)).toEqual(['refresh', 'refresh']);
    expect(await operationsOf(c, ENV.test)).toHaveLength(1);
  });

  test('exportTargetFirst exports the target, waits for it, then refreshes it', async () => {
    const c = (cloud = await startCloud());
    const dir = workdir({ 'm/refresh.yaml': refreshManifest('uat-from-test', { source: ENV.test, revision: '1', exportFirst: 'uat-before-1' }) });
    const apply = await moor(dir, c, ['apply', 'm', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const uat = await operationsOf(c, ENV.uat);
    expect(uat.map((o) => [o.kind, o.backupName ?? o.sourceEnvironmentId, o.status])).toEqual([
      ['export', 'uat-before-1', 'Completed'],
      ['refresh', ENV.test, 'Completed'],
    ]);
    // The refresh is sent only once the export has ended (progress lines, in order).
    const lines = apply.stderr.split('\n');
    const exported = lines.findIndex((l) => l.includes(`export of ${ENV.uat}`) && l.endsWith(': Completed'));
    const refreshSent = lines.findIndex((l) => l.includes(`refresh of ${ENV.uat}`) && l.includes('sent, operation'));
    expect(exported, apply.stderr).toBeGreaterThanOrEqual(0);
    expect(refreshSent, apply.stderr).toBeGreaterThan(exported);
    expect((await moor(dir, c, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    expect(await operationsOf(c, ENV.uat)).toHaveLength(2);
    expect((await operationsOf(c, ENV.test)).length).toBe(0);
  });

  test('a failed run is not retried on the next apply until the revision changes', async () => {
    const c = (cloud = await startCloud());
    const dir = workdir({ 'm/export.yaml': exportManifest('nightly', { backupName: 'nightly-fail', revision: '7' }) });
    const run = (...args: string[]) => moor(dir, c, args);
    const failed = await run('apply', 'm', '--auto-approve');
    expect(failed.code).toBe(1);
    expect(failed.stdout + failed.stderr).toMatch(/DatabaseExport\/nightly.*Failed/);
    expect((await operationsOf(c, ENV.test)).map((o) => o.status)).toEqual(['Failed']);

    const plan = await run('plan', 'm', '--detailed-exitcode');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout + plan.stderr).toMatch(/warning: .*revision 7 failed earlier and is not retried/);
    const json = changesOf((await run('plan', 'm', '--output', 'json')).stdout);
    expect(json).toEqual([expect.objectContaining({ address: 'DatabaseExport/nightly', action: 'no-op' })]);
    const again = await run('apply', 'm', '--auto-approve');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(await operationsOf(c, ENV.test)).toHaveLength(1);

    writeFile(dir, 'm/export.yaml', exportManifest('nightly', { backupName: 'nightly-ok', revision: '8' }));
    const retried = await run('apply', 'm', '--auto-approve');
    expect(retried.code, retried.stdout + retried.stderr).toBe(0);
    expect((await operationsOf(c, ENV.test)).map((o) => [o.backupName, o.status])).toEqual([
      ['nightly-fail', 'Failed'],
      ['nightly-ok', 'Completed'],
    ]);
  });

  test("the service's limit of 3 operations per environment a day: the 4th is refused, reported, and not retried", async () => {
    const c = (cloud = await startCloud({ env: { MOOR_LOCAL_CLOUD_ASYNC_MS: '20' } }));
    const dir = workdir();
    for (const revision of ['1', '2', '3']) {
      writeFile(dir, 'm/export.yaml', exportManifest('snap', { backupName: `snap-${revision}`, revision }));
      const ok = await moor(dir, c, ['apply', 'm', '--auto-approve']);
      expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    }
    writeFile(dir, 'm/export.yaml', exportManifest('snap', { backupName: 'snap-4', revision: '4' }));
    const refused = await moor(dir, c, ['apply', 'm', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toMatch(/DatabaseExport\/snap: .*maximum of 3 database operations/);
    const plan = await moor(dir, c, ['plan', 'm', '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    expect(plan.stdout + plan.stderr).toContain('revision 4 failed earlier');
    expect((await operationsOf(c, ENV.test)).map((o) => o.backupName)).toEqual(['snap-1', 'snap-2', 'snap-3']);
  });

  test('kill -9 while the refresh is being followed: the next apply resumes the same operation, never a second refresh', async () => {
    // Phases (NotStarted, then InProgress) of an hour of the cloud's test clock: the refresh is still being
    // followed when the apply is killed, however slow the machine; the test ends them before the next apply.
    const clock = testClock();
    const c = (cloud = await startCloud({ clock, env: { MOOR_LOCAL_CLOUD_ASYNC_MS: '3600000' } }));
    const dir = workdir({ 'm/refresh.yaml': refreshManifest('uat-from-prod', { revision: 'k1' }) });
    const first = moorProcess(dir, c, ['apply', 'm', '--auto-approve'], { MOOR_POLL_INTERVAL_MS: '20' });
    let activityId: string | undefined;
    while (activityId === undefined) {
      const run = (await readState(dir).catch(() => undefined))?.resources['DatabaseRefresh/uat-from-prod']?.runs?.at(-1);
      const step = run?.steps?.[0];
      if (typeof step?.activityId === 'string') activityId = step.activityId;
      else if (first.child.exitCode !== null) throw new Error(`apply ended before the refresh was sent: ${(await first).stderr}`);
      else await new Promise((r) => setTimeout(r, 20));
    }
    first.child.kill('SIGKILL');
    await first;
    const log = await operationsOf(c, ENV.uat);
    expect(log).toHaveLength(1);
    // Killed while following: the operation had not ended yet.
    expect(log[0].status).not.toBe('Completed');

    const plan = await moor(dir, c, ['plan', 'm']);
    expect(plan.stdout).toMatch(/! DatabaseRefresh\/uat-from-prod/);
    expect(plan.stdout).toContain('resumes following');
    clock.advance(2 * 3_600_000); // the operation has ended at the service: the next apply finds it Completed
    const second = await moor(dir, c, ['apply', 'm', '--auto-approve']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    // plan takes the state lock too, so it is the first run to find the killed apply's lock.
    expect(plan.stderr).toContain('took over a stale state lock');
    expect(second.stdout + second.stderr).not.toContain('sent, operation');
    const after = await operationsOf(c, ENV.uat);
    expect(after.map((o) => [o.kind, o.activityId, o.status])).toEqual([['refresh', activityId, 'Completed']]);
    const state = await readState(dir);
    expect(state.resources['DatabaseRefresh/uat-from-prod'].runs.at(-1)).toMatchObject({ revision: 'k1', status: 'succeeded' });
    expect((await moor(dir, c, ['plan', 'm', '--detailed-exitcode'])).code).toBe(0);
  });
});
