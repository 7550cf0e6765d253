// State on a disk that runs full mid-apply: a create goes out only after its intent is durably
// recorded, and once there is space again the next apply converges without a duplicate dataset.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { datasetIdsNamed, datasetManifest, moor, readState, ROOT, startCloud, workdir, writeFile, type Cloud } from './harness.js';
import { moorProcess } from './processes.js';

const NAMES = Array.from({ length: 8 }, (_, i) => `ds${i}`);
/** Each dataset after the first depends on the one before, so their intents are recorded one at a time. */
const chained = (name: string, i: number) =>
  i === 0 ? datasetManifest(name) : datasetManifest(name).replace(`name: ${name}\n`, `name: ${name}\n  dependsOn: [PushDataset/${NAMES[i - 1]}]\n`);
/** Room for the lock file and about three datasets' records: the disk fills up while a later intent is written. */
const FREE_BYTES = '9800';
const FULL_DISK = pathToFileURL(join(ROOT, 'test/state/fixtures/disk-full.mjs')).href;

describe('apply with state on a disk that runs full', () => {
  let cloud: Cloud;
  let dir: string;
  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir(Object.fromEntries(NAMES.map((n, i) => [`m/${n}.yaml`, chained(n, i)])));
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('no dataset exists at the service without a durable record, and the next apply creates only the missing ones', async () => {
    const full = await moorProcess(dir, cloud, ['apply', 'm', '--auto-approve'], {
      NODE_OPTIONS: `--import=${FULL_DISK}`,
      MOOR_TEST_FULL_DIR: join(dir, '.moor'),
      MOOR_TEST_FREE_BYTES: FREE_BYTES,
    });
    expect(full.code, full.stdout + full.stderr).toBe(1);
    expect(full.stdout + full.stderr).toMatch(
      /was not sent, because state could not record it first: cannot write \.moor\/state\.json\.journal: no space left on the device/,
    );
    const state = await readState(dir);
    const created: string[] = [];
    for (const name of NAMES) {
      const ids = await datasetIdsNamed(cloud, name);
      expect(ids.length, name).toBeLessThanOrEqual(1);
      if (ids.length === 0) continue;
      created.push(name);
      expect(state.resources[`PushDataset/${name}`], `${name} exists at the service without a record in state`).toBeDefined();
    }
    // The disk filled up part-way: some creates went out, and the rest were held back.
    expect(created.length, full.stdout + full.stderr).toBeGreaterThan(0);
    expect(created.length).toBeLessThan(NAMES.length);

    const again = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    for (const name of NAMES) expect(await datasetIdsNamed(cloud, name), name).toHaveLength(1);
    const plan = await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});

describe('a journal cut short by an earlier full disk', () => {
  test('stops plan with where it is cut and how to go on, not a stack trace, and leaves it as it is', async () => {
    const dir = workdir({ 'm/a.yaml': datasetManifest('a') });
    const torn = '{"serial":1,"changes":[{"op":"put","address":"PushDataset/a","record":{"ki';
    writeFile(dir, '.moor/state.json.journal', torn);
    const plan = await moor(dir, undefined, ['plan', 'm']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('state journal .moor/state.json.journal ends in an incomplete record at line 1 (it was recording PushDataset/a)');
    expect(plan.stderr).toContain('truncate -s 0 .moor/state.json.journal');
    expect(plan.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(dir, '.moor/state.json.journal'), 'utf8')).toBe(torn);
  });
});
