// State in PostgreSQL (--state postgres://…): one row per workspace, a session-level advisory lock held for the run.
import type pg from 'pg';
import { UserError } from '../../core/diagnostics.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { knownEntry } from '../../core/known-key.js';
import { documentOfRow, foldChanges, stateRowOf, type ReadRow } from './postgres-document.js';
import { errorCode, failureReason, toUserError } from './postgres-errors.js';
import { StateLockedError } from './state-locked-error.js';
import { lostLockError } from './lost-lock.js';
import {
  advisoryUnlock,
  clearAndUnlock,
  clearHolder,
  findHolder,
  holderText,
  holdsAdvisoryLock,
  lockedError,
  newLockInfo,
  prepareLockSession,
  terminateHolder,
  tryAdvisoryLock,
  tryLockAndRecord,
  type Holder,
} from './postgres-lock.js';
import { LeaseSession, MIN_LEASE_TTL_MS, prepareLeaseSession, type HeldLease } from './postgres-lease.js';
import { joinPostgresFleet, PostgresFleet } from './postgres-fleet.js';
import { ensureSchema, watchLeaseKey, workspaceLockKey, type AdvisoryKey } from './postgres-schema.js';
import { APPEND_HISTORY_SQL, appendChangesSql, READ_HISTORY_SQL, READ_SQL, SERIAL_SQL, TRIM_HISTORY_SQL, writeDocumentSql } from './postgres-statements.js';
import { parsePostgresUrl, type PostgresTarget } from './postgres-url.js';
import { emptyState } from './state-document.js';
import {
  DEFAULT_HISTORY_LIMIT,
  type FleetMembership,
  type FleetSeat,
  type HistoryLimit,
  type LockInfo,
  type ReplicaCard,
  type StateBackend,
  type StateChange,
  type StateDocument,
  type StateLease,
  type WorkspaceIds,
} from './types.js';
import { sleep } from '../../core/abortable-wait.js';

const RETRY_MS = 200;

/** $1 workspaces: their serials (a workspace never written has no row). */
const SERIALS_SQL = 'SELECT workspace, serial FROM moor_state WHERE workspace = ANY($1::text[])';
/** $1 workspaces: each one's state row (address NULL), then its records' ids; one statement, so one snapshot. */
const RECORDED_IDS_SQL = `
SELECT s.workspace, s.serial, s.version, s.extras->>'stack' AS stack, NULL::text AS address, NULL::text AS id
  FROM moor_state s
 WHERE s.workspace = ANY($1::text[])
UNION ALL
SELECT r.workspace, NULL, NULL, NULL, r.address, r.record->>'id'
  FROM moor_resource r
 WHERE r.workspace = ANY($1::text[]) AND r.record ? 'id'`;

interface IdRow {
  workspace: string;
  serial: string | null;
  version: number | null;
  stack: string | null;
  address: string | null;
  id: string | null;
}

const CONNECT_TIMEOUT_MS = 15_000;
/** How long forceUnlock --force waits for a terminated holder's session to go (it takes milliseconds). */
const TERMINATE_WAIT_MS = 10_000;

/**
 * State kept in PostgreSQL (schema: postgres-schema.ts). Connections open lazily: constructing the
 * backend never touches the network. While the lock is held, every query of this backend goes
 * through the connection that holds it, so a run whose lock was lost (connection dropped, session
 * ended by 'moor state unlock --force') cannot write any more. Every write is also checked
 * against the serial this run last saw: a write whose base moved is refused, never applied.
 */
export class PostgresStateBackend implements StateBackend {
  readonly location: string;
  /** moor watch replicas share the workspaces through leases. */
  readonly replicas = true;
  private readonly target: PostgresTarget;
  private readonly key: AdvisoryKey;
  private readonly leaseKey: AdvisoryKey;
  /** moor watch's lease on the workspace while this process holds it; the state lock is then taken on its connection. */
  private lease: HeldLease | undefined;
  /** For reads and writes without the lock, and for forceUnlock; reconnected when it drops. */
  private plain: pg.Client | undefined;
  private lockClient: pg.Client | undefined;
  private held: LockInfo | undefined;
  /** Why the lock connection ended while we held the lock; set from the driver's events. */
  private lockLost: string | undefined;
  /** Serial as of our last read or write; used as the expected base of writes while we hold the lock. */
  private knownSerial: number | undefined;
  private plainSchemaReady = false;

  constructor(url: string) {
    this.target = parsePostgresUrl(url);
    this.location = this.target.redacted;
    this.key = workspaceLockKey(this.target.workspace);
    this.leaseKey = watchLeaseKey(this.target.workspace);
  }

  get workspace(): string {
    return this.target.workspace;
  }

  async read(): Promise<StateDocument> {
    const client = await this.client('reading state');
    try {
      const row = stateRowOf((await client.query<ReadRow>(READ_SQL, [this.workspace])).rows);
      return this.remember(row ? documentOfRow(row, this.location) : emptyState());
    } catch (err) {
      if (errorCode(err) === '42P01') return this.remember(emptyState()); // no table yet: nothing was ever written
      throw this.fail(err, 'reading state');
    }
  }

  async write(next: Omit<StateDocument, 'serial'>): Promise<StateDocument> {
    const base = this.expectedBase();
    const client = await this.client('writing state', true);
    let serial: number | undefined;
    try {
      const r = await client.query<{ serial: string }>(writeDocumentSql(base), [
        this.workspace,
        JSON.stringify(next.resources),
        next.extras ? JSON.stringify(next.extras) : null,
        base ?? null,
      ]);
      serial = r.rows[0] ? Number(r.rows[0].serial) : undefined;
    } catch (err) {
      throw this.fail(err, 'writing state');
    }
    if (serial === undefined) throw await this.moved(base);
    const doc: StateDocument = { version: 1, serial, resources: next.resources, ...(next.extras ? { extras: next.extras } : {}) };
    return this.remember(doc);
  }

  /**
   * Applies a batch in one statement: records put, addresses removed, extras keys set; serial + 1.
   * Costs what the batch changes (one row per resource), not the size of the state.
   */
  async appendChanges(changes: readonly StateChange[]): Promise<number> {
    const base = this.expectedBase();
    const folded = foldChanges(changes);
    const client = await this.client('recording changes in state', true);
    let serial: number | undefined;
    try {
      const r = await client.query<{ serial: string }>(appendChangesSql(base), [
        this.workspace,
        folded.puts,
        folded.removes,
        folded.extras ?? null,
        base ?? null,
      ]);
      serial = r.rows[0] ? Number(r.rows[0].serial) : undefined;
    } catch (err) {
      throw this.fail(err, 'recording changes in state');
    }
    if (serial === undefined) throw await this.moved(base);
    this.knownSerial = serial;
    return serial;
  }

  async readHistory(limit: HistoryLimit = DEFAULT_HISTORY_LIMIT): Promise<JsonObject[]> {
    const client = await this.client('reading the history');
    try {
      const r = await client.query<{ run: unknown }>(READ_HISTORY_SQL, [this.workspace, limit.keep, limit.maxBytes]);
      return r.rows
        .map((row) => row.run)
        .filter(isObject)
        .reverse();
    } catch (err) {
      if (errorCode(err) === '42P01') return []; // no table yet: nothing was ever recorded
      throw this.fail(err, 'reading the history');
    }
  }

  /** Through the lock's connection while it is held, so a run that lost its lock records nothing. */
  async appendHistory(runs: readonly JsonObject[], limit: HistoryLimit): Promise<void> {
    this.expectedBase();
    const client = await this.client('recording the run in the history', true);
    try {
      await client.query(APPEND_HISTORY_SQL, [this.workspace, JSON.stringify(runs)]);
      await client.query(TRIM_HISTORY_SQL, [this.workspace, limit.keep, limit.maxBytes]);
    } catch (err) {
      throw this.fail(err, 'recording the run in the history');
    }
  }

  async lock(operation: string, waitMs = 0): Promise<LockInfo> {
    const deadline = Date.now() + waitMs;
    const lease = this.lease;
    if (lease?.lost) throw new UserError(`lost the watch lease of ${this.location} (${lease.lost}): another replica may reconcile it now`);
    // Under a lease the lock lives on the lease's session: when the lease goes, so does the lock (fencing).
    const client = lease ? lease.client : await this.connect('taking the state lock');
    try {
      if (!lease) await prepareLockSession(client);
      await ensureSchema(client);
      for (;;) {
        const info = newLockInfo(operation);
        if (await tryLockAndRecord(client, this.key, this.workspace, info)) {
          this.adoptLockClient(client, info, !lease);
          return info;
        }
        const holder = await this.holderOf(client, Date.now() >= deadline);
        if (!holder) continue; // released between our attempt and the look: try again at once
        if (Date.now() >= deadline) throw lockedError(holder);
        await sleep(Math.min(RETRY_MS, Math.max(0, deadline - Date.now())));
      }
    } catch (err) {
      if (!lease) await client.end().catch(() => undefined);
      throw this.fail(err, 'taking the state lock');
    }
  }

  /**
   * The watch lease of this workspace: a session-level advisory lock on a connection of its own that
   * sends a heartbeat every quarter of `ttlMs`. The server ends a session silent for `ttlMs`
   * (idle_session_timeout), so a paused or cut-off replica loses the lease, and the state lock taken
   * through it, while a live one keeps it. Undefined while another replica holds it.
   */
  async takeLease(operation: string, ttlMs: number, fleet?: FleetMembership): Promise<StateLease | undefined> {
    if (this.lease && !this.lease.lost) return this.lease;
    if (this.lease) await this.dropLease();
    const ttl = Math.max(MIN_LEASE_TTL_MS, ttlMs);
    const onLost = (client: pg.Client) => (why: string) => {
      if (this.lockClient === client) this.lockLost ??= `the watch lease was lost: ${why}`;
    };
    let lease: HeldLease;
    if (fleet instanceof PostgresFleet && fleet.store === this.target.connectionString) {
      // On one of the replica's lease sessions, beside other stacks' leases: a handful of connections for all its stacks.
      try {
        const taken = await fleet.takeLease(this.workspace, onLost);
        if (!taken) return undefined;
        lease = taken;
      } catch (err) {
        throw this.fail(err, `taking the lease for ${operation}`);
      }
    } else {
      // Named with the process, so an operator (and a test) sees in pg_stat_activity which process holds what.
      const client = await this.connect(`taking the lease for ${operation}`, `${operation} lease (pid ${process.pid})`);
      try {
        await prepareLeaseSession(client, ttl);
        if (!(await tryAdvisoryLock(client, this.leaseKey))) {
          await client.end().catch(() => undefined);
          return undefined;
        }
      } catch (err) {
        await client.end().catch(() => undefined);
        throw this.fail(err, `taking the lease for ${operation}`);
      }
      lease = new LeaseSession(client, this.leaseKey, ttl, onLost(client));
    }
    this.lease = lease;
    return {
      held: () => (this.lease === lease ? lease.held() : Promise.resolve(false)),
      release: async () => {
        if (this.lease === lease) await this.dropLease();
      },
      ...(lease.epoch !== undefined ? { epoch: lease.epoch } : {}),
    };
  }

  /** moor watch: this process's membership of the replicas sharing this database, as `replica`. */
  async joinFleet(replica: ReplicaCard, ttlMs: number): Promise<FleetSeat> {
    const membership = await joinPostgresFleet(this.target.connectionString, replica, Math.max(MIN_LEASE_TTL_MS, ttlMs), {
      connect: (doing, application) => this.connect(doing, application),
      fail: (err, doing) => this.fail(err, doing),
    });
    return { membership, name: this.workspace };
  }

  /** Gives up the lease (after the state lock taken through it, if still held). */
  private async dropLease(): Promise<void> {
    const lease = this.lease;
    if (!lease) return;
    if (this.held && this.lockClient === lease.client) await this.unlock(this.held);
    this.lease = undefined;
    await lease.release();
  }

  async unlock(lock: LockInfo): Promise<void> {
    const client = this.lockClient;
    if (!client || this.held?.id !== lock.id) return;
    this.lockClient = undefined;
    this.held = undefined;
    this.knownSerial = undefined;
    try {
      if (!this.lockLost) await clearAndUnlock(client, this.key, this.workspace, lock.id);
    } catch {
      // The connection failed: the server drops the advisory lock with it, so the lock is released either way.
    } finally {
      this.lockLost = undefined;
      // The lease's connection stays: it holds the lease until the lease is given up.
      if (client !== this.lease?.client) await client.end().catch(() => undefined);
    }
  }

  /**
   * Fencing, before every write request of the run: the lock session must be alive and still hold
   * the advisory lock. A session ended by 'moor state unlock --force' (or a dropped connection)
   * fails here, so the run sends nothing more.
   */
  async assertLockHeld(): Promise<void> {
    const client = this.lockClient;
    if (!this.held) return;
    if (client && !this.lockLost) {
      try {
        // The lock is taken on the lease's connection while moor watch holds the lease.
        const lease = client === this.lease?.client ? this.lease : undefined;
        if (lease && !(await lease.held())) this.lockLost ??= `the watch lease was lost: ${lease.lost ?? 'not held'}`;
        else if (await holdsAdvisoryLock(client, this.key)) return;
        this.lockLost ??= 'the session no longer holds the advisory lock';
      } catch (err) {
        this.lockLost ??= failureReason(err, this.target);
      }
    }
    throw lostLockError(await this.lostDetail(), this.location);
  }

  /** Who holds the lock now, for the message of a run that lost it. */
  private async lostDetail(): Promise<string> {
    const ended = `the database session holding it ended: ${this.lockLost ?? 'the connection closed'}`;
    try {
      const holder = await findHolder(await this.client('reading the state lock'), this.workspace, this.key);
      return holder ? `taken over by ${holderText(holder)}; ${ended}` : ended;
    } catch {
      return ended; // the refusal matters more than the detail
    }
  }

  /**
   * Without force: clears what a crashed holder left (its advisory lock is gone already) and refuses
   * while a holder's session is connected. With force: ends the holder's database session first.
   */
  async forceUnlock(force: boolean): Promise<LockInfo | undefined> {
    const client = await this.client('clearing the state lock', true);
    try {
      const deadline = Date.now() + TERMINATE_WAIT_MS;
      let terminated: Holder | undefined;
      for (;;) {
        if (await tryAdvisoryLock(client, this.key)) {
          try {
            const cleared = await clearHolder(client, this.workspace);
            return terminated ? (terminated.info ?? cleared ?? unnamed(terminated)) : cleared;
          } finally {
            await advisoryUnlock(client, this.key);
          }
        }
        const holder = await findHolder(client, this.workspace, this.key);
        if (!holder) continue;
        if (!terminated) {
          if (!force) {
            throw new StateLockedError(
              `state is locked by ${holderText(holder)}, whose database session (pid ${holder.backendPid}) is still connected, so that run is probably active. ` +
                `PostgreSQL releases the lock by itself when the run ends or its connection drops; if the run hangs, 'moor state unlock --force' ends its database session`,
              holderText(holder),
            );
          }
          await terminateHolder(client, holder, this.location);
          terminated = holder;
        } else if (Date.now() >= deadline) {
          throw new UserError(
            `the database session (pid ${holder.backendPid}) holding the state lock on ${this.location} did not end after pg_terminate_backend; try again`,
          );
        }
        await sleep(50);
      }
    } catch (err) {
      throw this.fail(err, 'clearing the state lock');
    }
  }

  /**
   * What the states of `workspaces` (of this database) record, for the ownership check of a plan: their
   * serials, and the records' ids of those whose serial is not the one `known` gives (all of them when
   * `known` is empty). One statement each on one connection, whatever the number of workspaces; a
   * workspace never written comes back with serial 0 and no ids.
   */
  async recordedIds(workspaces: readonly string[], known: ReadonlyMap<string, number>): Promise<Map<string, WorkspaceIds>> {
    const out = new Map<string, WorkspaceIds>();
    const client = await this.client("reading other stacks' states");
    try {
      let changed = [...workspaces];
      if (workspaces.every((w) => known.has(w))) {
        const serials = new Map(
          (await client.query<{ workspace: string; serial: string }>(SERIALS_SQL, [workspaces])).rows.map((r) => [r.workspace, Number(r.serial)]),
        );
        changed = workspaces.filter((w) => (serials.get(w) ?? 0) !== known.get(w));
      }
      if (changed.length === 0) return out;
      for (const w of changed) out.set(w, { serial: 0, version: 1, ids: [] });
      for (const row of (await client.query<IdRow>(RECORDED_IDS_SQL, [changed])).rows) {
        const entry = knownEntry(out, row.workspace, 'workspace'); // the query asked for these workspaces only
        if (row.address === null)
          out.set(row.workspace, { ...entry, serial: Number(row.serial), version: row.version ?? 1, ...(row.stack !== null ? { stack: row.stack } : {}) });
        else if (row.id !== null) entry.ids.push([row.id, row.address]);
      }
      return out;
    } catch (err) {
      if (errorCode(err) === '42P01') return new Map(workspaces.map((w) => [w, { serial: 0, version: 1, ids: [] }])); // no table yet: nothing recorded
      throw this.fail(err, "reading other stacks' states");
    }
  }

  recordedIdsIn(database: string, workspaces: readonly string[], known: ReadonlyMap<string, number>): Promise<Map<string, WorkspaceIds>> | undefined {
    return database === this.target.connectionString ? this.recordedIds(workspaces, known) : undefined;
  }

  async close(): Promise<void> {
    await this.dropLease().catch(() => undefined);
    const clients = [this.plain, this.lockClient];
    this.plain = undefined;
    this.lockClient = undefined;
    this.held = undefined;
    await Promise.all(clients.map((c) => c?.end().catch(() => undefined) ?? Promise.resolve()));
  }

  /** The base serial a write must find: known only while we hold the lock (without it, any writer may have moved it). */
  private expectedBase(): number | undefined {
    if (this.held && this.lockLost) {
      throw new UserError(
        `the connection holding the state lock on ${this.location} ended (${this.lockLost}); the lock is lost, so this run records nothing more. ` +
          `Run 'moor plan' to see where things stand`,
      );
    }
    return this.held ? this.knownSerial : undefined;
  }

  /**
   * The error for a write whose base serial moved: somebody else wrote while we thought we held the
   * lock. The base stays as it was, so every later write of this run is refused too.
   */
  private async moved(base: number | undefined): Promise<UserError> {
    let now = 'unknown';
    try {
      const client = await this.client('reading state');
      const r = await client.query<{ serial: string }>(SERIAL_SQL, [this.workspace]);
      now = r.rows[0]?.serial ?? 'none (the row was deleted)';
    } catch {
      // the refusal matters more than the detail
    }
    return new UserError(
      `state in ${this.location} was changed by another writer (serial ${now}, this run expected ${base ?? 0}); ` +
        `this run's change was not recorded so as not to overwrite theirs. Run 'moor plan' to see where things stand`,
    );
  }

  private async holderOf(client: pg.Client, final: boolean): Promise<Holder | undefined> {
    const holder = await findHolder(client, this.workspace, this.key);
    // A holder takes the advisory lock a moment before it records who it is: look once more before saying so.
    if (final && holder && !holder.info) {
      await sleep(RETRY_MS);
      return findHolder(client, this.workspace, this.key);
    }
    return holder;
  }

  /** `listen`: watch the connection for its end (a lease's connection is watched by its lease, once for all cycles). */
  private adoptLockClient(client: pg.Client, info: LockInfo, listen: boolean): void {
    this.lockClient = client;
    this.held = info;
    this.lockLost = undefined;
    this.knownSerial = undefined;
    if (!listen) return;
    const lost = (why: string) => {
      if (this.lockClient === client) this.lockLost ??= why;
    };
    client.on('error', (err: Error) => lost(failureReason(err, this.target)));
    client.on('end', () => lost('the connection closed'));
  }

  /** The connection for a query: the lock's while we hold it, else the plain one (created on first use). */
  private async client(doing: string, forWrite = false): Promise<pg.Client> {
    if (this.lockClient && !this.lockLost) return this.lockClient;
    if (!this.plain) {
      const c = await this.connect(doing);
      const drop = () => {
        if (this.plain === c) this.plain = undefined;
      };
      c.on('error', drop);
      c.on('end', drop);
      this.plain = c;
    }
    if (forWrite && !this.plainSchemaReady) {
      try {
        await ensureSchema(this.plain);
      } catch (err) {
        throw this.fail(err, doing);
      }
      this.plainSchemaReady = true;
    }
    return this.plain;
  }

  /** `application`: how pg_stat_activity names the session (a watch's lease sessions say so). */
  private async connect(doing: string, application = 'moor'): Promise<pg.Client> {
    // Loaded on first use: runs with a state file never pay for the driver.
    const { default: driver } = await import('pg');
    const client = new driver.Client({
      connectionString: this.target.connectionString,
      application_name: application,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    // Without a listener, an idle connection's error (server restart, session ended) would crash the process.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => undefined);
      throw this.fail(err, `connecting for ${doing}`);
    }
    return client;
  }

  private fail(err: unknown, doing: string): UserError {
    return toUserError(err, this.target, doing);
  }

  private remember(doc: StateDocument): StateDocument {
    this.knownSerial = doc.serial;
    return doc;
  }
}

function unnamed(holder: Holder): LockInfo {
  return { id: '', who: `database session ${holder.backendPid}`, pid: holder.backendPid, host: '', operation: 'run', since: 'an unknown time' };
}
