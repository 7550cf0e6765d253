// A job whose outcome is unknown (kill -9 while its request was being sent) blocks what depends on
// it in every later apply, keeps plan and drift failing, and is released by `moor state resolve`.
import { afterEach, describe, expect, onTestFinished, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENV, exportManifest, moor, operationsOf, readState, refreshManifest, startCloud, workdir, writeFile, type Cloud } from './harness.js';
import type { ParsedJson } from '../support/parsed-json.js';
import { moorProcess } from './processes.js';

/** Rewrites the last run of `address` in the state file (the run has ended, so the journal is folded in). */
function editLastRun(dir: string, address: string, edit: (run: ParsedJson) => ParsedJson): void {
  const file = join(dir, '.moor/state.json');
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  const runs = doc.resources[address].runs;
  runs[runs.length - 1] = edit(runs[runs.length - 1]);
  writeFileSync(file, JSON.stringify(doc));
}

const EXPORT = 'DatabaseExport/uat-backup';
const REFRESH = 'DatabaseRefresh/uat-from-prod';

describe('unknown outcomes', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test("kill -9 during an export's send: the dependent refresh never runs until the outcome is resolved", async () => {
    // Every answer of this first cloud takes 1 s, so the apply is still waiting for the export's answer
    // when it is killed; the runs after the kill meet the same data in a cloud that answers at once.
    const dataFile = join(workdir(), 'cloud.json');
    const slow = await startCloud({ latencyMs: 1000, dataFile });
    onTestFinished(() => slow.stop());
    const dir = workdir({
      'm/export.yaml': exportManifest('uat-backup', { environment: ENV.uat, backupName: 'uat-before-r1', revision: 'r1' }),
      'm/refresh.yaml': refreshManifest('uat-from-prod', { revision: 'r1', dependsOn: [EXPORT] }),
    });
    const first = moorProcess(dir, slow, ['apply', 'm', '--auto-approve']);
    for (;;) {
      const steps = (await readState(dir).catch(() => undefined))?.resources[EXPORT]?.runs?.at(-1)?.steps;
      if (steps?.[0]?.status === 'Sending') break;
      if (first.child.exitCode !== null) throw new Error(`apply ended before the export was sent: ${(await first).stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    first.child.kill('SIGKILL');
    await first;
    await slow.stop();
    const c = (cloud = await startCloud({ dataFile }));
    const run = (...args: string[]) => moor(dir, c, args);
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
    expect(plan.stdout + plan.stderr).not.toContain(`${EXPORT}: ${EXPORT}:`);
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
    const changes = JSON.parse(planned.stdout).changes as { address: string; action: string }[];
    expect(changes.map((ch) => [ch.address, ch.action]).sort()).toEqual([
      [EXPORT, 'no-op'],
      [REFRESH, 'run'],
    ]);
    const applied = await run('apply', 'm', '--auto-approve');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect((await operationsOf(c, ENV.uat)).filter((o) => o.kind === 'refresh').map((o) => o.status)).toEqual(['Completed']);
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  }, 120_000);

  test('an operation whose status could not be read is re-checked by its activity id: no resend, then its dependent runs', async () => {
    const c = (cloud = await startCloud());
    const dir = workdir({ 'm/export.yaml': exportManifest('uat-backup', { environment: ENV.uat, backupName: 'uat-before-r1', revision: 'r1' }) });
    const run = (...args: string[]) => moor(dir, c, args);
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    // As if the status endpoint had failed while the export was followed.
    editLastRun(dir, EXPORT, (r) => ({
      ...r,
      status: 'failed',
      outcome: 'unknown',
      message: 'the status could not be read',
      steps: [{ ...r.steps[0], status: 'Unknown' }],
    }));
    writeFile(dir, 'm/refresh.yaml', refreshManifest('uat-from-prod', { revision: 'r1', dependsOn: [EXPORT] }));

    const plan = await run('plan', 'm', '--output', 'json');
    expect(plan.code, plan.stderr).toBe(0);
    const changes = JSON.parse(plan.stdout).changes as { address: string; action: string; reason?: string }[];
    expect(changes.find((ch) => ch.address === EXPORT)).toMatchObject({ action: 'run', reason: expect.stringContaining('the service knows it now') });
    const applied = await run('apply', 'm', '--auto-approve');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect((await operationsOf(c, ENV.uat)).map((o) => o.kind)).toEqual(['export', 'refresh']);
    expect((await readState(dir)).resources[EXPORT].runs.at(-1)).toMatchObject({ status: 'succeeded' });
  }, 60_000);

  test('resolve --failed: the next apply runs the job again, then what depends on it', async () => {
    const c = (cloud = await startCloud());
    const dir = workdir({
      'm/export.yaml': exportManifest('uat-backup', { environment: ENV.uat, backupName: 'uat-before-r1', revision: 'r1' }),
      'm/refresh.yaml': refreshManifest('uat-from-prod', { revision: 'r1', dependsOn: [EXPORT] }),
    });
    const run = (...args: string[]) => moor(dir, c, args);
    // The state a kill during the export's send leaves (the export never reached the service).
    writeFile(
      dir,
      '.moor/state.json',
      JSON.stringify({
        version: 1,
        serial: 1,
        resources: {
          [EXPORT]: {
            kind: 'DatabaseExport',
            name: 'uat-backup',
            lastApplied: { revision: 'r1' },
            updatedAt: 't',
            runs: [{ revision: 'r1', status: 'started', steps: [{ operation: 'export', environmentId: ENV.uat, status: 'Sending', at: 't' }] }],
          },
        },
      }),
    );
    const blocked = await run('apply', 'm', '--auto-approve');
    expect(blocked.code).toBe(1);
    expect(await operationsOf(c, ENV.uat)).toEqual([]);
    // The plan apply prints says what happens: the rest applies, the dependent is held back.
    expect(blocked.stdout).toMatch(
      new RegExp(`Plan applies in part: 1 job of unknown outcome — ${EXPORT}: .*; the rest of the plan applies; held back until it is resolved: ${REFRESH}\n`),
    );
    expect(blocked.stdout).not.toContain('Plan failed');

    const resolved = await run('state', 'resolve', EXPORT, '--failed');
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.stdout).toContain('the next apply runs it again');
    const plan = await run('plan', 'm');
    expect(plan.stdout).toContain('resolved as failed (moor state resolve): it runs again');
    const applied = await run('apply', 'm', '--auto-approve');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect((await operationsOf(c, ENV.uat)).map((o) => [o.kind, o.status])).toEqual([
      ['export', 'Completed'],
      ['refresh', 'Completed'],
    ]);
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  }, 60_000);
});
