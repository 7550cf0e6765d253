// Faults: a flaky cloud, a killed apply, two applies at once. State survives; nothing is duplicated.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { testClock } from '../support/test-clock.js';
import { groupManifest, listedGroups, moor, readState, startCloud, startMoor, workdir, type Cloud } from './harness.js';
import { moorProcess } from './processes.js';

const manyGroups = (n: number) => Array.from({ length: n }, (_, i) => groupManifest(`g${String(i).padStart(3, '0')}`)).join('---\n');
const HOUR_MS = 3_600_000;
const listGroups = async (cloud: Cloud) => (await listedGroups(cloud)).map((g) => g.name);

describe('container groups under faults', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test('with a 30% fault rate, apply of 50 groups converges and creates each once', async () => {
    cloud = await startCloud({ failRate: 0.3 });
    const dir = workdir({ 'm/secret.txt': 's', 'm/all.yaml': manyGroups(50) });
    let result = await moor(dir, cloud, ['apply', 'm', '--auto-approve', '--parallelism', '16']);
    // A request can fail all its retries under a 30% fault rate; a second apply picks up the rest.
    if (result.code !== 0) result = await moor(dir, cloud, ['apply', 'm', '--auto-approve', '--parallelism', '16']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const names = await listGroups(cloud);
    expect(names).toHaveLength(50);
    expect(new Set(names).size).toBe(50);
    const list = await moor(dir, cloud, ['state', 'list']);
    // A header row, then one row per recorded group.
    expect(list.stdout.trim().split('\n').slice(1)).toHaveLength(50);
  });

  test('apply killed with SIGKILL mid-way: the next apply converges and state is intact', async () => {
    cloud = await startCloud({ latencyMs: 30 });
    const dir = workdir({ 'm/secret.txt': 's', 'm/all.yaml': manyGroups(30) });
    const first = moorProcess(dir, cloud, ['apply', 'm', '--auto-approve', '--parallelism', '4']);
    // Kill once a few groups are recorded (state as moor reads it: the file plus its journal).
    const recorded = async () => Object.values((await readState(dir)).resources).filter((r) => r.id && !r.pending).length;
    while ((await recorded()) < 3) await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGKILL');
    await first;
    // The killed run left its lock behind; its process is gone, so the next apply takes it over.
    const second = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stderr).toContain('took over a stale state lock');
    expect(await listGroups(cloud)).toHaveLength(30);
    const plan = await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode']);
    expect(plan.code, plan.stdout).toBe(0);
  });

  test('two applies at once: one proceeds, the other stops with a clear lock message', async () => {
    // Provisioning lasts an hour of the cloud's test clock: the first apply holds the lock until the test,
    // once the second has run, moves the clock on (a slow cloud could be outrun by a loaded machine).
    const clock = testClock();
    cloud = await startCloud({ clock, env: { MOOR_PROVISIONING_MS: String(HOUR_MS) } });
    const dir = workdir({ 'm/secret.txt': 's', 'm/all.yaml': manyGroups(5) });
    // Both runs in this process, as two runs of moor: the lock file is what they contend for (file-lock.test.ts
    // has two processes contend for it; the SIGKILL test above a killed process's lock taken over).
    const first = startMoor(dir, cloud, ['apply', 'm', '--auto-approve']);
    let ended = false as boolean; // set by first's callback below
    void first.then(() => {
      ended = true;
    });
    while (!existsSync(join(dir, '.moor/state.json.lock')) && !ended) await new Promise((r) => setTimeout(r, 20));
    const b = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
    // Each group the first apply creates provisions for an hour: move the clock on until it has ended.
    while (!ended) {
      clock.advance(HOUR_MS);
      await new Promise((r) => setTimeout(r, 20));
    }
    const a = await first;
    const codes = [a.code, b.code].sort();
    expect(codes).toEqual([0, 1]);
    const loser = a.code === 1 ? a : b;
    expect(loser.stderr).toMatch(/state is locked by .* since /);
  });
});
