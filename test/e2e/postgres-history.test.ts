// moor history with PostgreSQL state: applies append runs to the workspace's state, bounded by history.keep and history.maxBytes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPostgres, workspaceUrl } from '../state/postgres-env.js';
import { authManifest, moor, startCloud, workdir, writeFile, type Cloud } from './harness.js';

describeWithPostgres('history in PostgreSQL state', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  it('records every apply, newest first, and keeps history.keep runs', async () => {
    const state = workspaceUrl('history');
    const dir = workdir({ 'm/c7.yaml': authManifest('c7', { displayName: 'v1' }), 'moor.config.yaml': 'history: {keep: 2}\n' });
    const run = (...args: string[]) => moor(dir, cloud, args, { MOOR_STATE: state });
    for (const name of ['v1', 'v2', 'v3']) {
      writeFile(dir, 'm/c7.yaml', authManifest('c7', { displayName: name }));
      const applied = await run('apply', 'm', '--auto-approve');
      expect(applied.code, applied.stderr).toBe(0);
    }
    const listed = await run('history', '--output', 'json');
    expect(listed.code, listed.stderr).toBe(0);
    const runs = (JSON.parse(listed.stdout) as { runs: { changes: { action: string }[] }[] }).runs;
    expect(runs.map((r) => r.changes.map((c) => c.action))).toEqual([['update'], ['update']]);
  });

  it('keeps no more than history.maxBytes of runs (the newest one whatever its size)', async () => {
    const state = workspaceUrl('history-bytes');
    // A 600-byte budget holds no more than one run of this manifest.
    const dir = workdir({ 'm/c8.yaml': authManifest('c8', { displayName: 'v1' }), 'moor.config.yaml': 'history: {maxBytes: 600}\n' });
    const run = (...args: string[]) => moor(dir, cloud, args, { MOOR_STATE: state });
    for (const name of ['v1', 'v2', 'v3']) {
      writeFile(dir, 'm/c8.yaml', authManifest('c8', { displayName: name }));
      const applied = await run('apply', 'm', '--auto-approve');
      expect(applied.code, applied.stderr).toBe(0);
    }
    const listed = await run('history', '--output', 'json');
    expect(listed.code, listed.stderr).toBe(0);
    const runs = (JSON.parse(listed.stdout) as { runs: { changes: { action: string }[] }[] }).runs;
    expect(runs.map((r) => r.changes.map((c) => c.action))).toEqual([['update']]);
  });
});
