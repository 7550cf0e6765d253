// moor history bounded by bytes as well as runs (history.maxBytes): a history that grew to 600 MB
// (before the limit) neither fails an apply nor `moor history`; the next apply trims it.
import { closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authManifest, moor, startCloud, workdir, writeFile, type Cloud } from './harness.js';

describe('a history of 600 MB', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  it('is listed and trimmed to history.maxBytes by the next apply, which ends in success', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }), 'moor.config.yaml': 'history: {maxBytes: 100000}\n' });
    expect((await moor(dir, cloud, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    // 600 MB before the run recorded: sparse, so it costs no disk and no time to make.
    const file = join(dir, '.moor/state.json.history');
    const first = readFileSync(file);
    const grown = openSync(file, 'w');
    writeSync(grown, Buffer.concat([Buffer.from('\n'), first]), 0, first.length + 1, 600 * 1024 * 1024);
    closeSync(grown);
    expect(statSync(file).size).toBeGreaterThan(600 * 1024 * 1024);

    const listed = await moor(dir, cloud, ['history', '--output', 'json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { runs: unknown[] }).runs).toHaveLength(1);

    writeFile(dir, 'm/c1.yaml', authManifest('c1', { displayName: 'One, again' }));
    const apply = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).not.toContain('internal error');
    expect(statSync(file).size).toBeLessThanOrEqual(100_000);
    const runs = (JSON.parse((await moor(dir, cloud, ['history', '--output', 'json'])).stdout) as { runs: { changes: { action: string }[] }[] }).runs;
    expect(runs.map((r) => r.changes[0].action)).toEqual(['update', 'create']);
  });

  it('refuses a history.maxBytes that is not a positive integer', async () => {
    const dir = workdir({ 'moor.config.yaml': 'history: {maxBytes: lots}\n' });
    const bad = await moor(dir, cloud, ['history']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('moor.config.yaml: history.maxBytes must be a positive integer');
  });
});
