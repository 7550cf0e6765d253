// The tables of PostgreSQL state, created when missing, and the advisory-lock keys moor uses.
import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * moor_state: one row per workspace (`?workspace=NAME` in the URL, default 'default').
 *   serial      grows by one with every write (a whole document or a batch of apply's changes)
 *   version     the state document version (1)
 *   extras      the document's "extras" (other features' data), or NULL
 *
 * moor_resource: the document's "resources", one row per address, so that apply's frequent small
 * batches cost what they change, not the size of the whole state. A workspace's rows change only
 * in the same statement that moves its moor_state serial, so a read (one statement) is consistent.
 *
 * moor_lock: who holds a workspace's lock, for messages only. The lock itself is the session-level
 * advisory lock of workspaceLockKey(workspace), held by a connection kept open for the run: two
 * sessions cannot both hold it, and the server drops it with the connection when the holder dies.
 *   backend_pid is pg_backend_pid() of that connection: a row whose backend_pid does not hold the
 *   advisory lock is left over from a crashed run and means nothing.
 *
 * moor_history: the runs of `moor history`, one row per run (seq orders them), trimmed to the newest
 * `history.keep` as runs are added. Apart from moor_state, so recording a run moves no serial.
 *
 * moor_watch_replica: the replicas of moor watch sharing the stacks (postgres-fleet.ts), one row per replica id.
 *   heartbeat_at moves every quarter of the lease time; backend_pid is the replica's fleet session, which holds
 *   the advisory lock (lock_classid, lock_objid) of its id while it runs. A replica is live while its heartbeat
 *   is recent and that session holds the lock; rows of replicas gone long ago are deleted by the next to join.
 *
 * moor_watch_lease: how many times each workspace's watch lease was taken (epoch, a fencing token) and by which
 *   replica last. The lease itself is the advisory lock of watchLeaseKey(workspace).
 *
 * To forget a workspace: DELETE its rows from moor_state and moor_resource (and moor_lock, moor_history).
 */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS moor_state (
  workspace   text PRIMARY KEY,
  serial      bigint NOT NULL,
  version     integer NOT NULL,
  extras      jsonb,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS moor_resource (
  workspace   text NOT NULL,
  address     text NOT NULL,
  record      jsonb NOT NULL,
  PRIMARY KEY (workspace, address)
);
CREATE TABLE IF NOT EXISTS moor_lock (
  workspace   text PRIMARY KEY,
  id          text NOT NULL,
  who         text NOT NULL,
  pid         integer NOT NULL,
  host        text NOT NULL,
  operation   text NOT NULL,
  since       timestamptz NOT NULL,
  backend_pid integer NOT NULL
);
CREATE TABLE IF NOT EXISTS moor_history (
  workspace   text NOT NULL,
  seq         bigserial NOT NULL,
  run         jsonb NOT NULL,
  PRIMARY KEY (workspace, seq)
);`;

/** The tables of moor watch's replicas, created when the first replica joins (runs without watch never have them). */
export const FLEET_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS moor_watch_replica (
  id           text PRIMARY KEY,
  host         text NOT NULL,
  pid          integer NOT NULL,
  listen       text,
  started_at   timestamptz NOT NULL,
  heartbeat_at timestamptz NOT NULL,
  backend_pid  integer NOT NULL,
  lock_classid bigint NOT NULL,
  lock_objid   bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS moor_watch_lease (
  workspace   text PRIMARY KEY,
  epoch       bigint NOT NULL,
  replica     text NOT NULL,
  since       timestamptz NOT NULL
);`;

const TABLES = ['moor_state', 'moor_resource', 'moor_lock', 'moor_history'];
const FLEET_TABLES = ['moor_watch_replica', 'moor_watch_lease'];

/** Serialises concurrent schema creation (CREATE TABLE IF NOT EXISTS races on a fresh database). */
const SCHEMA_LOCK_KEY = keyOf('moor-schema');

/** Creates the state's tables if they are missing (a no-op apart from one round trip when they exist). */
export async function ensureSchema(client: pg.Client): Promise<void> {
  await ensureTables(client, TABLES, SCHEMA_SQL);
}

/** The state's tables and the replicas' (moor watch joining a fleet). */
export async function ensureFleetSchema(client: pg.Client): Promise<void> {
  await ensureTables(client, TABLES, SCHEMA_SQL);
  await ensureTables(client, FLEET_TABLES, FLEET_SCHEMA_SQL);
}

/**
 * The table sets each connection has checked, or is checking: a lock taken every cycle on the same connection (a
 * watch's lease session) asks the catalog once, not every cycle. The check in flight is shared, so the stacks of
 * a replica that start their first cycles together ask once, and never open two schema transactions on one
 * connection. A failed check is forgotten (the next call asks again). Tables are never dropped while moor runs.
 */
const ensured = new WeakMap<pg.Client, Map<string, Promise<void>>>();

async function ensureTables(client: pg.Client, tables: readonly string[], sql: string): Promise<void> {
  let checks = ensured.get(client);
  if (!checks) ensured.set(client, (checks = new Map<string, Promise<void>>()));
  let check = checks.get(sql);
  if (!check) {
    check = createMissing(client, tables, sql);
    checks.set(sql, check);
    check.catch(() => checks.delete(sql));
  }
  await check;
}

async function createMissing(client: pg.Client, tables: readonly string[], sql: string): Promise<void> {
  const present = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_catalog.pg_tables WHERE tablename = ANY ($1::text[]) AND schemaname = ANY (current_schemas(false))`,
    [tables],
  );
  if (Number(present.rows[0]?.n) === tables.length) return;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [SCHEMA_LOCK_KEY.key]);
    await client.query(sql);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

export interface AdvisoryKey {
  /** The bigint key, as a decimal string (pg takes it as a parameter). */
  readonly key: string;
  /** How pg_locks shows a bigint key: high half in classid, low half in objid, objsubid 1. */
  readonly classid: number;
  readonly objid: number;
}

/** The advisory-lock key of a workspace's state: derived from its name, stable across moor versions. */
export function workspaceLockKey(workspace: string): AdvisoryKey {
  return keyOf(`moor-state\u0000${workspace}`);
}

/**
 * The advisory-lock key of a workspace's watch lease: the replica of `moor watch` holding it reconciles
 * the workspace (its stack); the others stand by. Apart from the state lock, so `moor apply` by hand still
 * takes turns with the watch cycle by cycle.
 */
export function watchLeaseKey(workspace: string): AdvisoryKey {
  return keyOf(`moor-watch-lease\u0000${workspace}`);
}

/** The advisory-lock key a replica of moor watch holds while it runs: one process per replica id. */
export function replicaKey(id: string): AdvisoryKey {
  return keyOf(`moor-watch-replica\u0000${id}`);
}

/** The advisory-lock key every lease session of a replica holds in shared mode: whose leases a session's locks are. */
export function sessionKey(id: string): AdvisoryKey {
  return keyOf(`moor-watch-replica-session\u0000${id}`);
}

function keyOf(text: string): AdvisoryKey {
  const digest = createHash('sha256').update(text).digest();
  return { key: digest.readBigInt64BE(0).toString(), classid: digest.readUInt32BE(0), objid: digest.readUInt32BE(4) };
}
