// A run whose state lock was broken (`moor state unlock --force`) and taken by a newer run stops
// before its next write request: the refresh after the export it was following is never sent.
// The cloud reads a test clock: what the run follows stays running until the test, having taken the
// lock away, moves the clock on, however slow the machine.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { testClock } from '../support/test-clock.js';
import { ARM_PATH, cloudRequest, ENV, groupManifest, moor, operationsOf, readState, refreshManifest, startCloud, workdir, type Cloud } from './harness.js';
import { moorProcess } from './processes.js';

const REFRESH = 'DatabaseRefresh/uat-from-prod';
/** An hour of the test clock: longer than any test takes, so only the test's advance ends it. */
const HOUR_MS = 3_600_000;

describe('lost state lock', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test('unlock --force and a newer holder while apply follows an export: the refresh is never sent', async () => {
    // Phases of an hour of the test clock: the export is still being followed when the lock is taken away.
    const clock = testClock();
    const c = (cloud = await startCloud({ clock, env: { MOOR_LOCAL_CLOUD_ASYNC_MS: String(HOUR_MS) } }));
    const dir = workdir({ 'm/refresh.yaml': refreshManifest('uat-from-prod', { revision: 'f1', exportFirst: 'uat-before-f1' }) });
    const first = moorProcess(dir, c, ['apply', 'm', '--auto-approve'], { MOOR_POLL_INTERVAL_MS: '50' });
    for (;;) {
      const step = (await readState(dir).catch(() => undefined))?.resources[REFRESH]?.runs?.at(-1)?.steps?.[0];
      if (typeof step?.activityId === 'string') break;
      if (first.child.exitCode !== null) throw new Error(`apply ended before the export was sent: ${(await first).stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const unlocked = await moor(dir, c, ['state', 'unlock', '--force']);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(unlocked.stdout).toMatch(/Removed the lock held by .*moor apply/);
    const newer = { id: 'newer-run', who: 'bob@ci-runner', pid: 4242, host: 'ci-runner', operation: 'moor apply', since: '2026-11-23T05:00:00.000Z' };
    writeFileSync(join(dir, '.moor/state.json.lock'), JSON.stringify(newer));
    clock.advance(2 * HOUR_MS); // the export's two phases end: the run would send the refresh next

    const result = await first;
    const out = result.stdout + result.stderr;
    expect(result.code, out).toBe(1);
    expect(out).toContain('lost the state lock (taken over by bob@ci-runner (pid 4242, moor apply) since 2026-11-23T05:00:00.000Z)');
    expect(out).not.toMatch(/refresh of .*sent, operation/);
    // Only the export reached the service; the newer holder's lock is untouched.
    expect((await operationsOf(c, ENV.uat)).map((o) => o.kind)).toEqual(['export']);
    expect(JSON.parse(readFileSync(join(dir, '.moor/state.json.lock'), 'utf8')).id).toBe('newer-run');
  }, 60_000);

  test('the next PUT of a run whose lock was taken is never sent, even where its state intent is not awaited', async () => {
    // beta waits for alpha, which provisions until the test moves the clock: the lock goes while alpha waits.
    // (A waiting change holds no request slot, so independent changes would all be sent at once.)
    const clock = testClock();
    const c = (cloud = await startCloud({ clock, env: { MOOR_PROVISIONING_MS: String(HOUR_MS) } }));
    const beta = groupManifest('beta').replace('  name: beta\n', '  name: beta\n  dependsOn: [ContainerGroup/alpha]\n');
    const dir = workdir({ 'm/secret.txt': 's3cret-value\n', 'm/a.yaml': groupManifest('alpha'), 'm/b.yaml': beta });
    const first = moorProcess(dir, c, ['apply', 'm', '--auto-approve', '--parallelism', '1']);
    const exists = async (name: string) => (await cloudRequest(c, 'GET', ARM_PATH(name))).status === 200;
    let created: string | undefined;
    while (created === undefined) {
      if (await exists('alpha')) created = 'alpha';
      else if (await exists('beta')) created = 'beta';
      else if (first.child.exitCode !== null) throw new Error(`apply ended before a group was created: ${(await first).stderr}`);
      else await new Promise((r) => setTimeout(r, 20));
    }
    expect((await moor(dir, c, ['state', 'unlock', '--force'])).code).toBe(0);
    writeFileSync(
      join(dir, '.moor/state.json.lock'),
      JSON.stringify({ id: 'newer-run', who: 'bob@ci-runner', pid: 4242, host: 'ci-runner', operation: 'moor apply', since: '2026-11-23T05:00:00.000Z' }),
    );
    clock.advance(HOUR_MS); // the first group is provisioned: the run would send the next PUT

    const result = await first;
    const out = result.stdout + result.stderr;
    expect(result.code, out).toBe(1);
    expect(out).toContain('lost the state lock (taken over by bob@ci-runner');
    expect(await exists(created === 'alpha' ? 'beta' : 'alpha'), out).toBe(false);
  }, 60_000);
});
