// `moor state list | show | rm | unlock` end to end through the built CLI (npm test builds first).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/engine/secrets.js';
import type { StateDocument } from '../../src/engine/state/types.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/moor.js');

function moor(...args: string[]): { code: number; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.MOOR_STATE;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', env });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
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
beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/cli/commands/state.js'))) {
    spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT });
  }
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'moor-state-cli-'));
  state = join(dir, 'state.json');
  await writeFile(state, JSON.stringify(doc));
});

describe('moor state list', () => {
  it('prints a header row, then one line per address with kind, id, updatedAt and a protected marker', () => {
    const r = moor('state', 'list', '--state', state);
    expect(r.code).toBe(0);
    const [header, ...lines] = r.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ADDRESS\s+KIND\s+ID\s+UPDATED\s+PROTECT$/);
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(['AuthContext/c1', 'ContainerGroup/web', 'DatabaseRefresh/uat']);
    expect(lines[0]).toMatch(/^AuthContext\/c1\s+AuthContext\s+c1\s+2026-11-21T12:01:00.000Z\s+protected$/);
    expect(lines[2]).toMatch(/DatabaseRefresh\s+-\s+2026-11-21T12:02:00.000Z$/);
  });

  it('uses MOOR_STATE and a relative path from the working directory', () => {
    const r = spawnSync(process.execPath, [BIN, 'state', 'list'], { cwd: dir, encoding: 'utf8', env: { ...process.env, MOOR_STATE: 'state.json' } });
    expect(r.stdout).toContain('ContainerGroup/web');
  });

  it('says so on stderr when state is empty', () => {
    const r = moor('state', 'list', '--state', join(dir, 'none.json'));
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toContain('No resources in state');
  });
});

describe('moor state show', () => {
  it('prints the record as JSON with secrets only as hashes', () => {
    const r = moor('state', 'show', 'ContainerGroup/web', '--state', state);
    expect(r.code).toBe(0);
    const shown = JSON.parse(r.stdout);
    expect(shown.address).toBe('ContainerGroup/web');
    expect(shown.lastApplied.secureValue).toMatch(/^sha256:/);
    expect(r.stdout).not.toContain('hunter2');
  });

  it('fails with exit 1 and no stack for an unknown address', () => {
    const r = moor('state', 'show', 'ContainerGroup/nope', '--state', state);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ContainerGroup/nope is not in state');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('moor state rm', () => {
  it('removes the record, says what it removed, and moves the serial on', async () => {
    const r = moor('state', 'rm', 'ContainerGroup/web', '--state', state);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Removed ContainerGroup/web (/subscriptions/s/');
    const after = JSON.parse(await readFile(state, 'utf8'));
    expect(Object.keys(after.resources).sort()).toEqual(['AuthContext/c1', 'DatabaseRefresh/uat']);
    expect(after.serial).toBe(5);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });

  it('refuses a protected record unless --force', async () => {
    const refused = moor('state', 'rm', 'AuthContext/c1', '--state', state);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is protected');
    expect(JSON.parse(await readFile(state, 'utf8')).resources['AuthContext/c1']).toBeDefined();
    expect(moor('state', 'rm', '--force', 'AuthContext/c1', '--state', state).code).toBe(0);
    expect(JSON.parse(await readFile(state, 'utf8')).resources['AuthContext/c1']).toBeUndefined();
  });

  it('refuses while another run holds the lock, naming it', async () => {
    await writeFile(
      `${state}.lock`,
      JSON.stringify({ id: 'x', who: 'alice@ci', pid: 42, host: 'ci-runner', operation: 'apply', since: '2026-11-21T12:00:00Z' }),
    );
    const r = moor('state', 'rm', 'ContainerGroup/web', '--state', state);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('state is locked by alice@ci (pid 42, moor apply) since 2026-11-21T12:00:00Z');
  });
});

describe('moor state unlock', () => {
  it('says when no lock is held', () => {
    expect(moor('state', 'unlock', '--state', state).stdout).toContain('No lock held');
  });

  it('clears a stale lock and names who held it', async () => {
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    await writeFile(
      `${state}.lock`,
      JSON.stringify({ id: 'x', who: 'bob@here', pid: dead, host: hostname(), operation: 'apply', since: '2026-11-21T12:00:00Z' }),
    );
    const r = moor('state', 'unlock', '--state', state);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Removed the lock held by bob@here (pid ${dead}, moor apply) since 2026-11-21T12:00:00Z`);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });

  it('with --force removes an unreadable lock file and says so (not "No lock held")', async () => {
    await writeFile(`${state}.lock`, 'garbage');
    expect(moor('state', 'unlock', '--state', state).code).toBe(1);
    const r = moor('state', 'unlock', '--force', '--state', state);
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
    const r = moor('state', 'unlock', '--state', state);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--force');
    expect(moor('state', 'unlock', '--force', '--state', state).stdout).toContain('Removed the lock held by alice@ci');
  });
});
