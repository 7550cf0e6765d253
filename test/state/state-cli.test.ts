// `moor state list | show | rm | unlock` end to end through the built CLI, run in this process as
// bin/moor.js runs it (main(argv, io) of dist/; the global setup builds it): the same parsing, exit codes
// and rendering, without a process start per command (none of these tests is about the process).
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/engine/secrets.js';
import type { StateDocument } from '../../src/engine/state/types.js';
import { moor as moorIn, type RunResult } from '../e2e/harness.js';
import { DEAD_PID } from './dead-pid.js';

/** `moor ARGS` in the test's folder, with no MOOR_STATE from the test's environment. */
function moor(...args: string[]): Promise<RunResult> {
  return moorIn(dir, undefined, args, { MOOR_STATE: undefined });
}

const doc: StateDocument = {
  version: 1,
  serial: 4,
  resources: {
    'ContainerGroup/web': {
      kind: 'ContainerGroup',
      name: 'web',
      id: '/subscriptions/s/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroups/web',
      lastApplied: { location: 'westeurope', secureValue: hashSecret('hunter2') },
      updatedAt: '2026-11-21T12:00:00.000Z',
    },
    'AuthContext/c1': { kind: 'AuthContext', name: 'c1', id: 'c1', lastApplied: { displayName: 'MFA' }, protect: true, updatedAt: '2026-11-21T12:01:00.000Z' },
    'DatabaseRefresh/uat': {
      kind: 'DatabaseRefresh',
      name: 'uat',
      lastApplied: { revision: '3' },
      runs: [{ revision: '3', status: 'succeeded' }],
      updatedAt: '2026-11-21T12:02:00.000Z',
    },
  },
};

let dir: string;
let state: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'moor-state-cli-'));
  state = join(dir, 'state.json');
  await writeFile(state, JSON.stringify(doc));
});

describe('moor state list', () => {
  it('prints a header row, then one line per address with kind, id, updatedAt and a protected marker', async () => {
    const r = await moor('state', 'list', '--state', state);
    expect(r.code).toBe(0);
    const [header, ...lines] = r.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ADDRESS\s+KIND\s+ID\s+UPDATED\s+PROTECT$/);
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(['AuthContext/c1', 'ContainerGroup/web', 'DatabaseRefresh/uat']);
    expect(lines[0]).toMatch(/^AuthContext\/c1\s+AuthContext\s+c1\s+2026-11-21T12:01:00.000Z\s+protected$/);
    expect(lines[2]).toMatch(/DatabaseRefresh\s+-\s+2026-11-21T12:02:00.000Z$/);
  });

  it('uses MOOR_STATE and a relative path from the working directory', async () => {
    const r = await moorIn(dir, undefined, ['state', 'list'], { MOOR_STATE: 'state.json' });
    expect(r.stdout).toContain('ContainerGroup/web');
  });

  it("during another run's apply, lists what it recorded and passes over the journal line it is writing; once that run is gone, the line stops the list", async () => {
    const entry = {
      serial: 5,
      changes: [
        { op: 'put', address: 'PushDataset/new', record: { kind: 'PushDataset', name: 'new', lastApplied: {}, updatedAt: '2026-11-21T12:03:00.000Z' } },
      ],
    };
    await writeFile(`${state}.journal`, `${JSON.stringify(entry)}\n{"serial":6,"changes":[{"op":"put","address":"PushDataset/next"`);
    // Held on another host: moor cannot tell that run is gone, so it is writing.
    const lock = { id: 'x', who: 'alice@ci', pid: 42, host: 'ci-runner', operation: 'apply', since: '2026-11-21T12:00:00Z' };
    await writeFile(`${state}.lock`, JSON.stringify(lock));
    const during = await moor('state', 'list', '--state', state);
    expect(during.code, during.stderr).toBe(0);
    expect(during.stdout).toMatch(/^PushDataset\/new\s/m);
    expect(during.stdout).not.toContain('PushDataset/next');
    // The same lock left by a process of this host that no longer runs: the line was cut short by a crash.
    await writeFile(`${state}.lock`, JSON.stringify({ ...lock, host: hostname(), pid: DEAD_PID }));
    const after = await moor('state', 'list', '--state', state);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('ends in an incomplete record at line 2 (it was recording PushDataset/next)');
  });

  it('says so on stderr when state is empty', async () => {
    const r = await moor('state', 'list', '--state', join(dir, 'none.json'));
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toContain('No resources in state');
  });
});

describe('moor state show', () => {
  it('prints the record as JSON with secrets only as hashes', async () => {
    const r = await moor('state', 'show', 'ContainerGroup/web', '--state', state);
    expect(r.code).toBe(0);
    const shown = JSON.parse(r.stdout);
    expect(shown.address).toBe('ContainerGroup/web');
    expect(shown.lastApplied.secureValue).toMatch(/^sha256:/);
    expect(r.stdout).not.toContain('hunter2');
  });

  it('fails with exit 1 and no stack for an unknown address', async () => {
    const r = await moor('state', 'show', 'ContainerGroup/nope', '--state', state);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ContainerGroup/nope is not in state');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('moor state rm', () => {
  it('removes the record, says what it removed, and moves the serial on', async () => {
    const r = await moor('state', 'rm', 'ContainerGroup/web', '--state', state);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Removed ContainerGroup/web (/subscriptions/s/');
    const after = JSON.parse(await readFile(state, 'utf8'));
    expect(Object.keys(after.resources).sort()).toEqual(['AuthContext/c1', 'DatabaseRefresh/uat']);
    expect(after.serial).toBe(5);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });

  it('refuses a protected record unless --force', async () => {
    const refused = await moor('state', 'rm', 'AuthContext/c1', '--state', state);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is protected');
    expect(JSON.parse(await readFile(state, 'utf8')).resources['AuthContext/c1']).toBeDefined();
    expect((await moor('state', 'rm', '--force', 'AuthContext/c1', '--state', state)).code).toBe(0);
    expect(JSON.parse(await readFile(state, 'utf8')).resources['AuthContext/c1']).toBeUndefined();
  });

  it('refuses while another run holds the lock, naming it', async () => {
    await writeFile(
      `${state}.lock`,
      JSON.stringify({ id: 'x', who: 'alice@ci', pid: 42, host: 'ci-runner', operation: 'apply', since: '2026-11-21T12:00:00Z' }),
    );
    const r = await moor('state', 'rm', 'ContainerGroup/web', '--state', state);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('state is locked by alice@ci (pid 42, moor apply) since 2026-11-21T12:00:00Z');
  });
});

describe('moor state unlock', () => {
  it('says when no lock is held', async () => {
    expect((await moor('state', 'unlock', '--state', state)).stdout).toContain('No lock held');
  });

  it('clears a stale lock and names who held it', async () => {
    await writeFile(
      `${state}.lock`,
      JSON.stringify({ id: 'x', who: 'bob@here', pid: DEAD_PID, host: hostname(), operation: 'apply', since: '2026-11-21T12:00:00Z' }),
    );
    const r = await moor('state', 'unlock', '--state', state);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Removed the lock held by bob@here (pid ${DEAD_PID}, moor apply) since 2026-11-21T12:00:00Z`);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });

  it('with --force removes an unreadable lock file and says so (not "No lock held")', async () => {
    await writeFile(`${state}.lock`, 'garbage');
    expect((await moor('state', 'unlock', '--state', state)).code).toBe(1);
    const r = await moor('state', 'unlock', '--force', '--state', state);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('No lock held');
    expect(r.stdout).toContain(`Removed an unreadable lock file (${state}.lock)`);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });

  it('leaves a lock from another host unless --force', async () => {
    await writeFile(
      `${state}.lock`,
      JSON.stringify({ id: 'x', who: 'alice@ci', pid: 42, host: 'ci-runner', operation: 'apply', since: '2026-11-21T12:00:00Z' }),
    );
    const r = await moor('state', 'unlock', '--state', state);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--force');
    expect((await moor('state', 'unlock', '--force', '--state', state)).stdout).toContain('Removed the lock held by alice@ci');
  });
});
