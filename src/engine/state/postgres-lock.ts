// The PostgreSQL state lock: a session-level advisory lock plus a moor_lock row saying who holds it.
import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import type pg from 'pg';
import { describeLock } from './describe-lock.js';
import { errorCode } from './postgres-errors.js';
import type { AdvisoryKey } from './postgres-schema.js';
import type { LockInfo } from './types.js';
import { StateLockedError } from './state-locked-error.js';

/** The session holding a workspace's advisory lock, and what it recorded about itself (if anything yet). */
export interface Holder {
  readonly backendPid: number;
  readonly info: LockInfo | undefined;
}

interface HolderRow {
  backend_pid: number;
  id: string | null;
  who: string | null;
  pid: number | null;
  host: string | null;
  operation: string | null;
  since: Date | null;
}

/**
 * Session settings of the connection that holds the lock: the server notices a vanished holder
 * (host down, network cut) within about a minute and a half instead of hours, and a server-wide
 * idle_session_timeout never ends a run's lock while apply waits on the services.
 */
const LOCK_SESSION_SETTINGS = [
  'SET tcp_keepalives_idle = 60',
  'SET tcp_keepalives_interval = 10',
  'SET tcp_keepalives_count = 3',
  'SET idle_session_timeout = 0',
];

/** Applies the lock session's settings; one the server does not know (an older version) is skipped. */
export async function prepareLockSession(client: pg.Client): Promise<void> {
  for (const sql of LOCK_SESSION_SETTINGS) {
    try {
      await client.query(sql);
    } catch (err) {
      if (errorCode(err) !== '42704') throw err; // undefined_object: no such setting on this server
    }
  }
}

export async function tryAdvisoryLock(client: pg.Client, key: AdvisoryKey): Promise<boolean> {
  const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key.key]);
  return r.rows.at(0)?.ok === true;
}

export async function advisoryUnlock(client: pg.Client, key: AdvisoryKey): Promise<void> {
  await client.query('SELECT pg_advisory_unlock($1::bigint)', [key.key]);
}

/** Fencing: whether this session still holds the workspace's advisory lock (a query on the lock session itself). */
export async function holdsAdvisoryLock(client: pg.Client, key: AdvisoryKey): Promise<boolean> {
  const r = await client.query<{ held: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_locks
                     WHERE locktype = 'advisory' AND granted AND pid = pg_backend_pid()
                       AND classid = $1 AND objid = $2 AND objsubid = 1) AS held`,
    [key.classid, key.objid],
  );
  return r.rows.at(0)?.held === true;
}

/**
 * Takes the workspace's advisory lock and, when it was free, records the holder (this session) in the same
 * statement: a watch takes the lock every cycle of every stack, so each round trip saved counts. False when
 * another session holds the lock (nothing recorded then).
 */
export async function tryLockAndRecord(client: pg.Client, key: AdvisoryKey, workspace: string, info: LockInfo): Promise<boolean> {
  const r = await client.query<{ ok: boolean }>(
    `WITH taken AS (SELECT pg_try_advisory_lock($1::bigint) AS ok)
     INSERT INTO moor_lock (workspace, id, who, pid, host, operation, since, backend_pid)
     SELECT $2::text, $3::text, $4::text, $5::integer, $6::text, $7::text, $8::timestamptz, pg_backend_pid() FROM taken WHERE taken.ok
     ON CONFLICT (workspace) DO UPDATE SET id = excluded.id, who = excluded.who, pid = excluded.pid, host = excluded.host,
       operation = excluded.operation, since = excluded.since, backend_pid = excluded.backend_pid
     RETURNING true AS ok`,
    [key.key, workspace, info.id, info.who, info.pid, info.host, info.operation, info.since],
  );
  return r.rows.length > 0;
}

/**
 * Releases the lock this session took as `id`: its row goes, then the advisory lock, in one statement (the row is
 * counted before the unlock runs). A row another holder wrote meanwhile (after `moor state unlock --force`) stays.
 */
export async function clearAndUnlock(client: pg.Client, key: AdvisoryKey, workspace: string, id: string): Promise<void> {
  await client.query(
    `WITH cleared AS (DELETE FROM moor_lock WHERE workspace = $1 AND id = $2 RETURNING 1)
     SELECT pg_advisory_unlock($3::bigint) FROM (SELECT count(*) FROM cleared) AS c`,
    [workspace, id, key.key],
  );
}

export async function clearHolder(client: pg.Client, workspace: string, id?: string): Promise<LockInfo | undefined> {
  const r =
    id === undefined
      ? await client.query<HolderRow>('DELETE FROM moor_lock WHERE workspace = $1 RETURNING *', [workspace])
      : await client.query<HolderRow>('DELETE FROM moor_lock WHERE workspace = $1 AND id = $2 RETURNING *', [workspace, id]);
  return r.rows[0] ? infoOf(r.rows[0]) : undefined;
}

/** The session holding the advisory lock in this database, or undefined when nobody holds it. */
export async function findHolder(client: pg.Client, workspace: string, key: AdvisoryKey): Promise<Holder | undefined> {
  const r = await client.query<HolderRow>(
    `SELECT l.pid AS backend_pid, m.id, m.who, m.pid, m.host, m.operation, m.since
       FROM pg_catalog.pg_locks l
       LEFT JOIN moor_lock m ON m.workspace = $1 AND m.backend_pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $2 AND l.objid = $3 AND l.objsubid = 1
        AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())`,
    [workspace, key.classid, key.objid],
  );
  const row = r.rows[0] as HolderRow | undefined; // no row: no session holds the lock
  return row ? { backendPid: row.backend_pid, info: infoOf(row) } : undefined;
}

/**
 * Ends the holder's database session (its advisory lock goes with it). A UserError explains when
 * this role may not: pg_terminate_backend needs the same role, a superuser or pg_signal_backend.
 */
export async function terminateHolder(client: pg.Client, holder: Holder, location: string): Promise<void> {
  let ok: boolean;
  try {
    const r = await client.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [holder.backendPid]);
    ok = r.rows.at(0)?.ok === true;
  } catch (err) {
    if (errorCode(err) !== '42501') throw err;
    ok = false;
  }
  if (!ok) {
    throw new StateLockedError(
      `state is locked by ${holderText(holder)} and moor may not end that database session (pid ${holder.backendPid}): ` +
        `ending another role's session needs the same role, a superuser or membership in pg_signal_backend. ` +
        `Ask an administrator of ${location} to run SELECT pg_terminate_backend(${holder.backendPid}), or wait for the run to end`,
      holderText(holder),
    );
  }
}

export function holderText(holder: Holder): string {
  return holder.info ? describeLock(holder.info) : `a database session (pid ${holder.backendPid}) that has not said who it is`;
}

export function lockedError(holder: Holder): StateLockedError {
  return new StateLockedError(
    `state is locked by ${holderText(holder)}; PostgreSQL releases the lock when that run ends or its connection drops` +
      ` (a crashed run never keeps it). If the run hangs, 'moor state unlock --force' ends its database session`,
    holderText(holder),
  );
}

export function newLockInfo(operation: string): LockInfo {
  const host = hostname();
  return { id: randomUUID(), who: `${userName()}@${host}`, pid: process.pid, host, operation, since: new Date().toISOString() };
}

function infoOf(row: HolderRow): LockInfo | undefined {
  if (row.id === null || row.who === null || row.pid === null || row.host === null || row.operation === null || row.since === null) return undefined;
  return { id: row.id, who: row.who, pid: row.pid, host: row.host, operation: row.operation, since: row.since.toISOString() };
}

/** Read once: a watch takes a lock per stack every interval, and the user does not change meanwhile. */
let user: string | undefined;

function userName(): string {
  try {
    user ??= userInfo().username;
  } catch {
    // No passwd entry (some containers): fall back to the environment.
    user = process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
  return user;
}
