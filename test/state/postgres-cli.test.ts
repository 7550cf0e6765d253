// The built CLI with --state postgres://…: apply, plan and state commands against a standalone local cloud.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PostgresStateBackend } from '../../src/engine/state/postgres-backend.js';
import { groupManifest, moor, startCloud, workdir, type Cloud, type RunResult } from '../e2e/harness.js';
import { describeWithPostgres, PG_PASSWORD, workspaceUrl } from './postgres-env.js';

describeWithPostgres('CLI with PostgreSQL state', () => {
  let cloud: Cloud;
  let dir: string;
  let state: string;
  const outputs: RunResult[] = [];
  const run = async (...args: string[]) => {
    const r = await moor(dir, cloud, [...args, '--state', state]);
    outputs.push(r);
    return r;
  };

  const readState = async () => {
    const b = new PostgresStateBackend(state);
    try {
      return await b.read();
    } finally {
      await b.close();
    }
  };

  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({ 'm/secret.txt': 'pg-e2e-secret\n', 'm/web.yaml': groupManifest('web'), 'm/api.yaml': groupManifest('api') });
    state = workspaceUrl('cli');
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  it('apply records in the database; a second plan has nothing to do; state list shows the addresses', async () => {
    const apply = await run('apply', 'm', '--auto-approve');
    expect(apply.stdout).toContain('Apply complete: 2 created');
    expect(apply.code).toBe(0);
    const plan = await run('plan', 'm', '--detailed-exitcode');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    const list = await run('state', 'list');
    expect(list.code).toBe(0);
    expect(
      list.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(['ADDRESS', 'ContainerGroup/api', 'ContainerGroup/web']);
    const doc = await readState();
    expect(Object.keys(doc.resources).sort()).toEqual(['ContainerGroup/api', 'ContainerGroup/web']);
  });

  it('apply refuses while another run holds the lock, naming it; state unlock refuses a live holder', async () => {
    const other = new PostgresStateBackend(state);
    const held = await other.lock('moor apply');
    try {
      const apply = await run('apply', 'm', '--auto-approve');
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain(`state is locked by ${held.who} (pid ${held.pid}, moor apply) since ${held.since}`);
      const unlock = await run('state', 'unlock');
      expect(unlock.code).toBe(1);
      expect(unlock.stderr).toContain('is still connected');
    } finally {
      await other.unlock(held);
      await other.close();
    }
    const unlock = await run('state', 'unlock');
    expect(unlock.code).toBe(0);
    expect(unlock.stdout).toMatch(/^No lock held on postgres:\/\/[^:]+:\*\*\*@/);
  });

  it('state rm forgets an address in the database', async () => {
    const rm = await run('state', 'rm', 'ContainerGroup/api');
    expect(rm.code).toBe(0);
    expect((await run('state', 'list')).stdout).not.toContain('ContainerGroup/api');
    expect(Object.keys((await readState()).resources)).toEqual(['ContainerGroup/web']);
  });

  it('a wrong password is one clear line, exit 1, no stack trace', async () => {
    const url = new URL(state);
    url.password = 'wrong-hunter2-password';
    const r = await moor(dir, cloud, ['plan', 'm', '--state', url.href]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /PostgreSQL state postgres:\/\/[^:]+:\*\*\*@\S+: connecting for (reading state|taking the state lock) failed: authentication failed/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr + r.stdout).not.toContain('wrong-hunter2-password');
  });

  it('no output of any of these runs contains the password', () => {
    expect(outputs.length).toBeGreaterThan(5);
    for (const r of outputs) expect(r.stdout + r.stderr).not.toContain(PG_PASSWORD);
  });
});
