// A job whose outcome is unknown (kill -9 while its request was being sent) blocks what depends on
// it in every later apply, keeps plan and drift failing, and is released by `moor state resolve`.
import { afterEach, describe, expect, test } from 'vitest';
import { ENV, exportManifest, moor, operationsOf, readState, refreshManifest, startCloud, workdir, type Cloud } from './harness.js';

const EXPORT = 'DatabaseExport/uat-backup';
const REFRESH = 'DatabaseRefresh/uat-from-prod';

describe('unknown outcomes', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => { await cloud?.stop(); cloud = undefined; });

  test('kill -9 during an export\'s send: the dependent refresh never runs until the outcome is resolved', async () => {
    // Every answer takes 3 s, so the apply is still waiting for the export's answer when it is killed.
    const c = cloud = await startCloud({ latencyMs: 3000 });
    const dir = workdir({
      'm/export.yaml': exportManifest('uat-backup', { environment: ENV.uat, backupName: 'uat-before-r1', revision: 'r1' }),
      'm/refresh.yaml': refreshManifest('uat-from-prod', { revision: 'r1', dependsOn: [EXPORT] }),
    });
    const run = (...args: string[]) => moor(dir, c, args);

    const first = moor(dir, c, ['apply', 'm', '--auto-approve']);
    for (;;) {
      const steps = (await readState(dir).catch(() => undefined))?.resources[EXPORT]?.runs?.at(-1)?.steps;
      if (steps?.[0]?.status === 'Sending') break;
      if (first.child.exitCode !== null) throw new Error(`apply ended before the export was sent: ${(await first).stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    first.child.kill('SIGKILL');
    await first;
    // Known at once from the record the crash left: no pipeline reads this as converged.
    const afterKill = await run('plan', 'm', '--detailed-exitcode');
    expect(afterKill.code, afterKill.stdout + afterKill.stderr).toBe(1);
    expect(afterKill.stderr + afterKill.stdout).toContain('the answer to its request was lost in a crash');
    expect(afterKill.stdout).toContain(`skipped until the outcome of ${EXPORT} is resolved`);

    // Every later apply: the export's outcome is unknown, the refresh is skipped because of it.
    for (let i = 0; i < 3; i++) {
      const again = await run('apply', 'm', '--auto-approve');
      const out = again.stdout + again.stderr;
      expect(again.code, out).toBe(1);
      expect(out).toMatch(new RegExp(`${EXPORT}: .*(unknown|may or may not have started).*\\(skipped because of it: ${REFRESH}\\)`));
      expect(out).not.toContain('refresh of');
    }
    expect((await operationsOf(c, ENV.uat)).map((o) => o.kind)).not.toContain('refresh');

    const plan = await run('plan', 'm', '--detailed-exitcode');
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    expect(plan.stdout + plan.stderr).toContain(`moor state resolve ${EXPORT} --succeeded`);
    const drift = await run('drift', 'm');
    expect(drift.code, drift.stdout + drift.stderr).toBe(1);

    const wrong = await run('state', 'resolve', REFRESH, '--succeeded');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('is not in state');
    const resolved = await run('state', 'resolve', EXPORT, '--succeeded');
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.stdout).toContain(`Resolved ${EXPORT} as succeeded`);
    expect((await readState(dir)).resources[EXPORT].runs.at(-1)).toMatchObject({ revision: 'r1', status: 'succeeded', resolved: 'succeeded' });

    const planned = await run('plan', 'm', '--output', 'json');
    expect(planned.code, planned.stderr).toBe(0);
    const changes = JSON.parse(planned.stdout).changes as Array<{ address: string; action: string }>;
    expect(changes.map((ch) => [ch.address, ch.action]).sort()).toEqual([[EXPORT, 'no-op'], [REFRESH, 'run']]);
    const applied = await run('apply', 'm', '--auto-approve');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect((await operationsOf(c, ENV.uat)).filter((o) => o.kind === 'refresh').map((o) => o.status)).toEqual(['Completed']);
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  }, 120_000);
});
