// moor watch replicas on PostgreSQL: a replica keeps one database session for its membership (a row of
// moor_watch_replica with a heartbeat, and the advisory lock of its id) and a few for its stack leases
// (each stack's lease, and the state lock taken under it, on the session its name hashes to; every lease
// session holds its replica's session key in shared mode, so the others see whose leases they are). A
// replica that dies or goes silent loses its sessions, and with them its membership and all its leases at
// once (one session lost ends the others); a process watching hundreds of stacks keeps a handful of
// connections, not two per stack (a lease session per 25 stacks, at most four), and its heartbeat never
// waits behind its stacks' queries.
import type pg from 'pg';
import { UserError } from '../../core/diagnostics.js';
import { sleep } from '../../core/abortable-wait.js';
import { advisoryUnlock, holdsAdvisoryLock, tryAdvisoryLock } from './postgres-lock.js';
import { prepareLeaseSession, serializeQueries, type HeldLease } from './postgres-lease.js';
import { ensureFleetSchema, replicaKey, sessionKey, watchLeaseKey, type AdvisoryKey } from './postgres-schema.js';
import type { FleetMembership, FleetReplica, FleetSurvey, ReplicaCard } from './types.js';

/** Heartbeats per lease time: a stall of up to two of them loses nothing. */
const HEARTBEATS_PER_TTL = 4;
/** Rows of replicas silent this long are deleted by the next replica to join (until then the dashboard shows them gone). */
const FORGET_AFTER_S = 3600;
/** How often a replica whose id is still held (its previous process not yet gone) tries again. */
const RETRY_JOIN_MS = 250;
/** Sessions a replica's leases are spread over at most (opened as stacks need them): its stacks' cycles take turns on each. */
export const LEASE_SESSIONS = 4;
/**
 * Stacks of a store one lease session serves before the replica spreads them over one more: a cycle costs a
 * handful of short statements every interval, so one session keeps up with dozens of stacks, while each session
 * costs a server process (tens of milliseconds of CPU to start, on the server and in moor).
 */
export const STACKS_PER_LEASE_SESSION = 25;

export interface FleetConnector {
  /** Opens a connection named `application` in pg_stat_activity. */
  connect(doing: string, application: string): Promise<pg.Client>;
  /** A failure as a UserError naming the (redacted) state. */
  fail(err: unknown, doing: string): UserError;
}

/** Memberships of this process, one per store and replica id: every backend of the store shares it. */
const joined = new Map<string, Promise<PostgresFleet>>();

/** This process's membership of the fleet of `store` as `replica`: joined on first use, joined again once lost. */
export async function joinPostgresFleet(store: string, replica: ReplicaCard, ttlMs: number, connector: FleetConnector): Promise<PostgresFleet> {
  const key = `${store}\u0000${replica.id}`;
  const existing = joined.get(key);
  if (existing) {
    const fleet = await existing.catch(() => undefined);
    if (fleet?.active) return fleet;
    if (joined.get(key) === existing) joined.delete(key);
    return joinPostgresFleet(store, replica, ttlMs, connector);
  }
  const joining = PostgresFleet.join(store, replica, ttlMs, connector);
  joined.set(key, joining);
  joining.catch(() => {
    if (joined.get(key) === joining) joined.delete(key);
  });
  return joining;
}

interface ReplicaRow {
  id: string;
  host: string;
  pid: number;
  listen: string | null;
  started_at: Date;
  heartbeat_at: Date;
  backend_pid: number;
  live: boolean;
}

/** A row of the survey: a replica's, or (id NULL) an advisory lock's: the session holding it (pid) and its key. */
type SurveyRow = ReplicaRow | { id: null; pid: number; classid: string; objid: string };

/**
 * One look, one round trip (a replica looks every few hundred milliseconds): the replicas (id set), then the
 * advisory locks held (id NULL), which say whose leases are whose.
 */
const SURVEY_SQL = `
SELECT r.id, r.host, r.pid, r.listen, r.started_at, r.heartbeat_at, r.backend_pid,
       r.heartbeat_at > now() - make_interval(secs => $1::double precision)
       AND EXISTS (SELECT 1 FROM pg_catalog.pg_locks l
                    WHERE l.locktype = 'advisory' AND l.granted AND l.pid = r.backend_pid AND l.objsubid = 1
                      AND l.classid::bigint = r.lock_classid AND l.objid::bigint = r.lock_objid) AS live,
       NULL::bigint AS classid, NULL::bigint AS objid
  FROM moor_watch_replica r
UNION ALL
SELECT NULL, NULL, l.pid, NULL, NULL, NULL, NULL, NULL, l.classid::bigint, l.objid::bigint
  FROM pg_catalog.pg_locks l
 WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
 ORDER BY 1`;

/** One of a replica's lease sessions: its connection, and how its heartbeat stops. */
interface LeaseConnection {
  readonly client: pg.Client;
  readonly stopBeating: () => void;
}

export class PostgresFleet implements FleetMembership {
  private lostWhy: string | undefined;
  private left = false;
  private readonly heartbeat: NodeJS.Timeout;
  /** Told when the session ends: the leases taken through it are gone. */
  private readonly listeners = new Set<(why: string) => void>();
  /** Lease keys by workspace name (a hash each; surveyed every tick). */
  private readonly keys = new Map<string, AdvisoryKey>();
  /** The lease sessions, opened on first use. */
  private readonly sessions: (Promise<LeaseConnection> | undefined)[] = [];
  /** How many lease sessions the stacks surveyed call for (never fewer once grown: a held lease stays on its session). */
  private sessionCount = 1;

  private constructor(
    readonly store: string,
    readonly replica: ReplicaCard,
    readonly client: pg.Client,
    private readonly ttlMs: number,
    private readonly connector: FleetConnector,
  ) {
    serializeQueries(client);
    this.watchConnection(client);
    this.heartbeat = setInterval(() => {
      void this.beat();
    }, this.beatMs);
    this.heartbeat.unref();
  }

  private get beatMs(): number {
    return Math.max(100, Math.floor(this.ttlMs / HEARTBEATS_PER_TTL));
  }

  private watchConnection(client: pg.Client): void {
    client.on('error', (err: Error) => this.lose(`the connection failed: ${err.message}`));
    client.on('end', () => this.lose('the connection closed'));
  }

  /** Connects, takes the replica id's lock (waiting out a previous process of the same id for two lease times) and enters its row. */
  static async join(store: string, replica: ReplicaCard, ttlMs: number, connector: FleetConnector): Promise<PostgresFleet> {
    const client = await connector.connect(`joining the replicas of moor watch`, `moor watch lease (pid ${process.pid})`);
    const key = replicaKey(replica.id);
    try {
      await prepareLeaseSession(client, ttlMs);
      await ensureFleetSchema(client);
      const deadline = Date.now() + 2 * ttlMs;
      while (!(await tryAdvisoryLock(client, key))) {
        if (Date.now() >= deadline) throw new UserError(await sameIdMessage(client, replica.id));
        await sleep(RETRY_JOIN_MS);
      }
      await client.query(`DELETE FROM moor_watch_replica WHERE heartbeat_at < now() - make_interval(secs => $1::double precision)`, [FORGET_AFTER_S]);
      await client.query(
        `INSERT INTO moor_watch_replica (id, host, pid, listen, started_at, heartbeat_at, backend_pid, lock_classid, lock_objid)
         VALUES ($1, $2, $3, $4, now(), now(), pg_backend_pid(), $5, $6)
         ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid, listen = excluded.listen, started_at = excluded.started_at,
           heartbeat_at = excluded.heartbeat_at, backend_pid = excluded.backend_pid, lock_classid = excluded.lock_classid, lock_objid = excluded.lock_objid`,
        [replica.id, replica.host, replica.pid, replica.listen ?? null, key.classid, key.objid],
      );
    } catch (err) {
      await client.end().catch(() => undefined);
      throw connector.fail(err, 'joining the replicas of moor watch');
    }
    return new PostgresFleet(store, replica, client, ttlMs, connector);
  }

  get lost(): string | undefined {
    return this.lostWhy;
  }

  get leaseMs(): number {
    return this.ttlMs;
  }

  /** Neither lost nor left: leases may be taken through it. */
  get active(): boolean {
    return this.lostWhy === undefined && !this.left;
  }

  async survey(names: readonly string[]): Promise<FleetSurvey> {
    this.assertConnected();
    this.sessionCount = Math.max(this.sessionCount, Math.min(LEASE_SESSIONS, Math.ceil(names.length / STACKS_PER_LEASE_SESSION)));
    const all = (await this.client.query<SurveyRow>(SURVEY_SQL, [this.ttlMs / 1000])).rows;
    const rows = all.filter((r): r is ReplicaRow => r.id !== null);
    const locks = all.filter((r) => r.id === null);
    const replicas: FleetReplica[] = rows.map((r) => ({
      id: r.id,
      host: r.host,
      pid: r.pid,
      listen: r.listen,
      startedAt: r.started_at.toISOString(),
      heartbeatAt: r.heartbeat_at.toISOString(),
      live: r.live,
    }));
    const sessionKeys = new Map(
      rows
        .filter((r) => r.live)
        .map((r) => {
          const key = sessionKey(r.id);
          return [`${key.classid}:${key.objid}`, r.id];
        }),
    );
    const byKey = new Map(
      names.map((name) => {
        const key = this.keyOf(name);
        return [`${key.classid}:${key.objid}`, name];
      }),
    );
    // A lease session holds its replica's session key: whose leases its locks are.
    const byPid = new Map<number, string>();
    for (const l of locks) {
      const id = sessionKeys.get(`${l.classid}:${l.objid}`);
      if (id !== undefined) byPid.set(l.pid, id);
    }
    const holders = new Map<string, string>();
    for (const l of locks) {
      const name = byKey.get(`${l.classid}:${l.objid}`);
      const id = byPid.get(l.pid);
      if (name !== undefined && id !== undefined) holders.set(name, id);
    }
    return { replicas, holders };
  }

  /** The lease of workspace `name` on this session, or undefined while another replica holds it. */
  async takeLease(name: string, onLost: (client: pg.Client) => (why: string) => void): Promise<HeldLease | undefined> {
    this.assertConnected();
    const key = this.keyOf(name);
    const { client } = await this.sessionFor(key);
    if (!(await tryAdvisoryLock(client, key))) return undefined;
    let epoch: number;
    try {
      const r = await client.query<{ epoch: string }>(
        `INSERT INTO moor_watch_lease (workspace, epoch, replica, since) VALUES ($1, 1, $2, now())
         ON CONFLICT (workspace) DO UPDATE SET epoch = moor_watch_lease.epoch + 1, replica = excluded.replica, since = excluded.since
         RETURNING epoch`,
        [name, this.replica.id],
      );
      epoch = Number(r.rows[0].epoch);
    } catch (err) {
      await advisoryUnlock(client, key).catch(() => undefined);
      throw err;
    }
    return new FleetLease(this, client, key, epoch, onLost(client));
  }

  /** The lease session of a key (its low bits pick one of the sessions the stacks call for), opened on first use. */
  private sessionFor(key: AdvisoryKey): Promise<LeaseConnection> {
    const i = key.objid % this.sessionCount;
    let session = this.sessions[i];
    if (!session) {
      session = this.openSession();
      this.sessions[i] = session;
      session.catch(() => {
        if (this.sessions[i] === session) this.sessions[i] = undefined;
      });
    }
    return session;
  }

  private async openSession(): Promise<LeaseConnection> {
    const client = await this.connector.connect('taking a lease for moor watch', `moor watch lease (pid ${process.pid})`);
    try {
      await prepareLeaseSession(client, this.ttlMs);
      await client.query('SELECT pg_advisory_lock_shared($1::bigint)', [sessionKey(this.replica.id).key]);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw this.connector.fail(err, 'taking a lease for moor watch');
    }
    if (!this.active) {
      await client.end().catch(() => undefined);
      throw new UserError('this replica left the fleet');
    }
    const idleMs = serializeQueries(client);
    this.watchConnection(client);
    // Busy sessions are not idle (the stacks' cycles query them); one quiet for a beat sends a query so that the server keeps it.
    let timer: NodeJS.Timeout;
    const beat = () => {
      const idle = idleMs();
      if (idle >= this.beatMs)
        client.query('SELECT 1').catch((err: unknown) => this.lose(`a lease session's heartbeat failed: ${err instanceof Error ? err.message : String(err)}`));
      timer = setTimeout(beat, idle >= this.beatMs || idle === 0 ? this.beatMs : this.beatMs - idle);
      timer.unref();
    };
    timer = setTimeout(beat, this.beatMs);
    timer.unref();
    return { client, stopBeating: () => clearTimeout(timer) };
  }

  async leave(): Promise<void> {
    if (this.left) return;
    this.left = true;
    clearInterval(this.heartbeat);
    await this.endSessions();
    try {
      if (this.lostWhy === undefined)
        await this.client.query('DELETE FROM moor_watch_replica WHERE id = $1 AND backend_pid = pg_backend_pid()', [this.replica.id]);
    } catch {
      // The session is gone: its lock went with it, and the row is no longer live.
    } finally {
      await this.client.end().catch(() => undefined);
    }
  }

  /** @internal a lease of this session tells it is gone (released) or wants to hear of the session's end. */
  watch(listener: (why: string) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private keyOf(name: string): AdvisoryKey {
    let key = this.keys.get(name);
    if (!key) this.keys.set(name, (key = watchLeaseKey(name)));
    return key;
  }

  private assertConnected(): void {
    if (this.lostWhy !== undefined) throw new UserError(`this replica's session with the state ended (${this.lostWhy}); it joins again`);
    if (this.left) throw new UserError('this replica left the fleet');
  }

  /** The heartbeat: keeps the session busy (the server ends a silent one) and the row recent. */
  private async beat(): Promise<void> {
    if (this.lostWhy !== undefined || this.left) return;
    try {
      const r = await this.client.query('UPDATE moor_watch_replica SET heartbeat_at = now() WHERE id = $1 AND backend_pid = pg_backend_pid()', [
        this.replica.id,
      ]);
      if (r.rowCount === 0) this.lose('its row in moor_watch_replica was taken by another process of the same replica id');
    } catch (err) {
      this.lose(`the heartbeat failed: ${(err as Error).message}`);
    }
  }

  private lose(why: string): void {
    if (this.lostWhy !== undefined || this.left) return;
    this.lostWhy = why;
    clearInterval(this.heartbeat);
    for (const listener of [...this.listeners]) listener(why);
    // One session gone ends the others (and a session only half gone, a row taken over), so every lock goes together.
    void this.client.end().catch(() => undefined);
    void this.endSessions();
  }

  private async endSessions(): Promise<void> {
    const sessions = this.sessions.splice(0);
    await Promise.all(
      sessions.map(async (s) => {
        const session = await s?.catch(() => undefined);
        if (!session) return;
        session.stopBeating();
        await session.client.end().catch(() => undefined);
      }),
    );
  }
}

/** A stack's lease on its replica's session: an advisory lock beside the others, released alone. */
class FleetLease implements HeldLease {
  private released = false;
  private lostWhy: string | undefined;
  private readonly unwatch: () => void;

  constructor(
    private readonly fleet: PostgresFleet,
    readonly client: pg.Client,
    private readonly key: AdvisoryKey,
    readonly epoch: number,
    onLost: (why: string) => void,
  ) {
    this.unwatch = fleet.watch((why) => {
      this.lostWhy ??= why;
      onLost(why);
    });
  }

  get lost(): string | undefined {
    return this.lostWhy ?? this.fleet.lost;
  }

  async held(): Promise<boolean> {
    if (this.released || this.lost !== undefined) return false;
    try {
      if (await holdsAdvisoryLock(this.client, this.key)) return true;
      this.lostWhy ??= 'the session no longer holds the lease';
    } catch (err) {
      this.lostWhy ??= `the check failed: ${(err as Error).message}`;
    }
    return false;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.unwatch();
    if (this.lost !== undefined) return;
    // A failed unlock on a live session would keep the lease: the session is ended then, as a lost one would be.
    await advisoryUnlock(this.client, this.key).catch(() => this.client.end().catch(() => undefined));
  }
}

async function sameIdMessage(client: pg.Client, id: string): Promise<string> {
  const r = await client.query<{ host: string; pid: number }>('SELECT host, pid FROM moor_watch_replica WHERE id = $1', [id]).catch(() => undefined);
  const row = r?.rows[0];
  return `another moor watch runs as replica ${id}${row ? ` (host ${row.host}, pid ${row.pid})` : ''}: each replica needs an id of its own (--replica-id or MOOR_REPLICA_ID)`;
}
