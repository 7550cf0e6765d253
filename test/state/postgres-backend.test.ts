// PostgreSQL state against a real server: documents and serials, apply's batches, refused writes, workspaces, errors.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import { UserError } from '../../src/core/diagnostics.js';
import { StateRecorder } from '../../src/engine/state/recorder.js';
import type { ResourceRecord } from '../../src/engine/state/types.js';
import { describeWithPostgres, PG_PASSWORD, PG_URL, workspaceUrl, backendsClosedAfterEach } from './postgres-env.js';

const backend = backendsClosedAfterEach();

const rec = (name: string, extra: Partial<ResourceRecord> = {}): ResourceRecord => ({
  kind: 'ContainerGroup',
  name,
  lastApplied: { image: `nginx:${name}` },
  updatedAt: '2026-11-21T12:00:00.000Z',
  ...extra,
});

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

describeWithPostgres('PostgreSQL state: documents', () => {
  it('an unwritten workspace reads as empty state with serial 0', async () => {
    expect(await backend(workspaceUrl('empty')).read()).toEqual({ version: 1, serial: 0, resources: {} });
  });

  it('creates its tables in an empty schema and keeps what it writes there', async () => {
    const schema = `moor_test_${randomUUID().replaceAll('-', '')}`;
    await admin((c) => c.query(`CREATE SCHEMA ${schema}`));
    try {
      const url = new URL(workspaceUrl('schema'));
      url.searchParams.set('options', `-c search_path=${schema}`);
      const b = backend(url.href);
      expect((await b.read()).serial).toBe(0);
      const lock = await b.lock('apply');
      await b.write({ version: 1, resources: { 'ContainerGroup/a': rec('a') } });
      await b.unlock(lock);
      const tables = await admin((c) => c.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY 1', [schema]));
      expect(tables.rows.map((r) => r.tablename)).toEqual(['moor_history', 'moor_lock', 'moor_resource', 'moor_state']);
      expect((await backend(url.href).read()).resources).toEqual({ 'ContainerGroup/a': rec('a') });
    } finally {
      await admin((c) => c.query(`DROP SCHEMA ${schema} CASCADE`));
    }
  });

  it('write stores the document, grows the serial by one each time and drops records left out', async () => {
    const url = workspaceUrl('write');
    const b = backend(url);
    const lock = await b.lock('apply');
    const first = await b.write({ version: 1, resources: { 'ContainerGroup/a': rec('a'), 'ContainerGroup/b': rec('b') }, extras: { notify: { id: 'm1' } } });
    expect(first.serial).toBe(1);
    const second = await b.write({ version: 1, resources: { 'ContainerGroup/b': rec('b', { protect: true }) } });
    expect(second.serial).toBe(2);
    await b.unlock(lock);
    expect(await backend(url).read()).toEqual({ version: 1, serial: 2, resources: { 'ContainerGroup/b': rec('b', { protect: true }) } });
  });

  it('appendChanges applies a batch in order (the last word on an address wins) as one serial', async () => {
    const url = workspaceUrl('append');
    const b = backend(url);
    const lock = await b.lock('apply');
    await b.read();
    expect(
      await b.appendChanges([
        { op: 'put', address: 'ContainerGroup/a', record: rec('a') },
        { op: 'put', address: 'ContainerGroup/b', record: rec('b') },
        { op: 'extras', key: 'threads', value: { plan: 'x' } },
      ]),
    ).toBe(1);
    expect(
      await b.appendChanges([
        { op: 'remove', address: 'ContainerGroup/a' },
        { op: 'put', address: 'ContainerGroup/b', record: rec('b', { id: 'old' }) },
        { op: 'put', address: 'ContainerGroup/b', record: rec('b', { id: 'new' }) },
        { op: 'put', address: 'ContainerGroup/c', record: rec('c') },
        { op: 'remove', address: 'ContainerGroup/c' },
        { op: 'extras', key: 'other', value: 1 },
      ]),
    ).toBe(2);
    await b.unlock(lock);
    expect(await backend(url).read()).toEqual({
      version: 1,
      serial: 2,
      resources: { 'ContainerGroup/b': rec('b', { id: 'new' }) },
      extras: { threads: { plan: 'x' }, other: 1 },
    });
  });

  it("the recorder's changes are durable in the database as each one resolves", async () => {
    const url = workspaceUrl('recorder');
    const b = backend(url);
    const lock = await b.lock('apply');
    const recorder = new StateRecorder(b, await b.read());
    await Promise.all(Array.from({ length: 20 }, (_, i) => recorder.put(`ContainerGroup/g${i}`, rec(`g${i}`))));
    await recorder.remove('ContainerGroup/g0');
    const seen = await backend(url).read(); // another connection, while the lock is still held
    expect(Object.keys(seen.resources)).toHaveLength(19);
    expect(seen.resources['ContainerGroup/g7']).toEqual(rec('g7'));
    await b.unlock(lock);
  });

  it("refuses a write whose base serial moved under the lock, and every later one, leaving the other writer's state", async () => {
    const url = workspaceUrl('moved');
    const mine = backend(url);
    const lock = await mine.lock('apply');
    await mine.read();
    await backend(url).write({ version: 1, resources: { 'ContainerGroup/theirs': rec('theirs') } }); // a writer ignoring the lock
    const err = await mine.appendChanges([{ op: 'put', address: 'ContainerGroup/mine', record: rec('mine') }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/was changed by another writer \(serial 1, this run expected 0\)/);
    await expect(mine.write({ version: 1, resources: {} })).rejects.toThrow(/changed by another writer/);
    await mine.unlock(lock);
    expect(Object.keys((await backend(url).read()).resources)).toEqual(['ContainerGroup/theirs']);
  });

  it('keeps workspaces apart: documents and locks', async () => {
    const prod = backend(workspaceUrl('prod'));
    const staging = backend(workspaceUrl('staging'));
    const lp = await prod.lock('apply');
    const ls = await staging.lock('apply');
    await prod.write({ version: 1, resources: { 'ContainerGroup/p': rec('p') } });
    expect(await staging.read()).toEqual({ version: 1, serial: 0, resources: {} });
    await prod.unlock(lp);
    await staging.unlock(ls);
  });

  it('says when a stored document is corrupt instead of overwriting it', async () => {
    const url = workspaceUrl('corrupt');
    const b = backend(url);
    await b.write({ version: 1, resources: { 'ContainerGroup/a': rec('a') } });
    await admin((c) => c.query(`UPDATE moor_resource SET record = '{"kind": 1}' WHERE workspace = $1`, [new URL(url).searchParams.get('workspace')]));
    await expect(backend(url).read()).rejects.toThrow(/is corrupt: record "ContainerGroup\/a" lacks kind, name or lastApplied\. moor will not overwrite it/);
  });
});

describeWithPostgres('PostgreSQL state: the password never shows', () => {
  it('a wrong password is a clear UserError with the URL redacted', async () => {
    const url = new URL(workspaceUrl('auth'));
    url.password = 'wrong-hunter2-password';
    const b = backend(url.href);
    expect(b.location).not.toContain('wrong-hunter2-password');
    const err = await b.lock('apply').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(
      /^PostgreSQL state postgres:\/\/[^:]+:\*\*\*@.*: connecting for taking the state lock failed: authentication failed/,
    );
    expect((err as Error).message).not.toContain('wrong-hunter2-password');
  });

  it('no message of a working backend contains the password', async () => {
    const url = workspaceUrl('messages');
    const a = backend(url);
    const lock = await a.lock('apply');
    const messages = [a.location];
    for (const attempt of [() => backend(url).lock('plan'), () => backend(url).forceUnlock(false)]) {
      messages.push(
        await attempt().then(
          () => 'no error',
          (e: unknown) => (e as Error).message,
        ),
      );
    }
    await a.unlock(lock);
    expect(messages[0]).toContain(':***@');
    expect(messages[1]).toContain('state is locked by');
    expect(messages[2]).toContain('is still connected');
    for (const m of messages) expect(m).not.toContain(PG_PASSWORD);
  });
});
