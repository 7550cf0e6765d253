// The watch lease on PostgreSQL: one holder per workspace, handed over on release; the state lock taken
// under it goes with it, so a replica whose lease session ended or that was paused past the lease time
// writes nothing more (fencing), and another replica takes the workspace over.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { expect, it } from 'vitest';
import { UserError } from '../../src/core/diagnostics.js';
import { watchLeaseKey } from '../../src/engine/state/postgres-schema.js';
import { emptyState } from '../../src/engine/state/state-document.js';
import { describeWithPostgres, workspaceUrl, backendsClosedAfterEach, PG_URL } from './postgres-env.js';

const backend = backendsClosedAfterEach();

/** The sessions holding the watch lease of the workspace of `url` (the lease connections name themselves). */
async function leaseSessions(url: string): Promise<number[]> {
  const key = watchLeaseKey(new URL(url).searchParams.get('workspace')!);
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    const r = await admin.query<{ pid: number }>(
      `SELECT a.pid FROM pg_catalog.pg_stat_activity a JOIN pg_catalog.pg_locks l ON l.pid = a.pid
        WHERE a.application_name = $3 AND l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2`,
      [key.classid, key.objid, `moor watch lease (pid ${process.pid})`],
    );
    return r.rows.map((row) => row.pid);
  } finally {
    await admin.end();
  }
}

async function terminate(pids: readonly number[]): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    for (const pid of pids) await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

/**
 * Blocks this thread (no heartbeat, no I/O), as a paused process would be, until the server ended the session
 * `pid` (a thread of its own watches pg_stat_activity) or `maxMs` passed; resolves with whether it ended.
 */
async function pauseUntilEnded(pid: number, maxMs: number): Promise<boolean> {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const watcher = new Worker(
    `const { workerData: w } = require('node:worker_threads');
     const pg = require(w.pg);
     (async () => {
       const c = new pg.Client({ connectionString: w.url });
       await c.connect();
       while ((await c.query('SELECT 1 FROM pg_catalog.pg_stat_activity WHERE pid = $1', [w.pid])).rowCount > 0) await new Promise((r) => setTimeout(r, 100));
       await c.end();
       Atomics.store(w.flag, 0, 1);
       Atomics.notify(w.flag, 0);
     })();`,
    { eval: true, workerData: { pg: createRequire(import.meta.url).resolve('pg'), url: PG_URL, pid, flag } },
  );
  Atomics.wait(flag, 0, 0, maxMs);
  await watcher.terminate();
  return Atomics.load(flag, 0) === 1;
}

/** Resolves once the server ends a session of its own that sent nothing for `ttlMs` (the lease time has passed by the server's clock). */
async function leaseTimePassed(ttlMs: number): Promise<void> {
  const probe = new pg.Client({ connectionString: PG_URL });
  await probe.connect();
  const ended = new Promise<void>((resolve) => {
    probe.on('error', () => resolve());
    probe.on('end', () => resolve());
  });
  await probe.query(`SET idle_session_timeout = ${ttlMs}`);
  await ended;
  await probe.end().catch(() => undefined);
}

describeWithPostgres('PostgreSQL watch lease', () => {
  it('is held by one replica at a time and handed over when released', async () => {
    const url = workspaceUrl('lease-one');
    const a = backend(url);
    const b = backend(url);
    const leaseA = await a.takeLease('moor watch', 5_000);
    expect(leaseA).toBeDefined();
    expect(await b.takeLease('moor watch', 5_000)).toBeUndefined();
    expect(await leaseA!.held()).toBe(true);
    await leaseA!.release();
    expect(await leaseA!.held()).toBe(false);
    const leaseB = await b.takeLease('moor watch', 5_000);
    expect(leaseB).toBeDefined();
    await leaseB!.release();
  });

  it('under a lease the state lock lives on the lease session: when that session ends the holder writes nothing and another replica takes over', async () => {
    const url = workspaceUrl('lease-fence');
    const a = backend(url);
    const lease = await a.takeLease('moor watch', 5_000);
    const lock = await a.lock('moor watch');
    await a.write(emptyState());
    const before = await leaseSessions(url);
    expect(before).toHaveLength(1);
    await terminate(before);

    const fenced = await a.assertLockHeld().catch((e: unknown) => e);
    expect(fenced).toBeInstanceOf(UserError);
    expect((fenced as Error).message).toMatch(/lost the state lock/);
    await expect(a.write(emptyState())).rejects.toThrow(/lock is lost|lost the state lock|another writer/);
    expect(await lease!.held()).toBe(false);
    await a.unlock(lock);

    const b = backend(url);
    const taken = await b.takeLease('moor watch', 5_000);
    expect(taken).toBeDefined();
    await b.lock('moor watch');
    const written = await b.write(emptyState());
    expect(written.serial).toBe(2);
  });

  it('a replica paused past the lease time loses the lease and its state lock; another takes over', async () => {
    const url = workspaceUrl('lease-pause');
    const a = backend(url);
    const lease = await a.takeLease('moor watch', 5_000);
    await a.lock('moor watch');
    const [session] = await leaseSessions(url);
    // Silent until the server ends the session (the lease time, 5 s, at least).
    expect(await pauseUntilEnded(session, 30_000)).toBe(true);
    // The server ended the silent session: the lease and the lock are free for another replica.
    const b = backend(url);
    await expect.poll(async () => (await b.takeLease('moor watch', 5_000)) !== undefined, { timeout: 10_000 }).toBe(true);
    await b.lock('moor watch');
    await expect(a.assertLockHeld()).rejects.toThrow(/lost the state lock/);
    expect(await lease!.held()).toBe(false);
  }, 60_000);

  it('a replica that stays alive keeps its lease past the lease time (the heartbeat keeps the session busy)', async () => {
    const url = workspaceUrl('lease-keep');
    const a = backend(url);
    const lease = await a.takeLease('moor watch', 5_000);
    // A session opened after the lease, silent for the lease time, is ended by the server: the lease's is older.
    await leaseTimePassed(5_000);
    expect(await lease!.held()).toBe(true);
    expect(await backend(url).takeLease('moor watch', 5_000)).toBeUndefined();
  }, 60_000);
});
