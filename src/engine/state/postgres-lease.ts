// The watch lease on PostgreSQL: a session-level advisory lock on a connection of its own, which the
// server ends (and the lease with it) when the process dies, is cut off or stops sending heartbeats.
import type pg from 'pg';
import { errorCode } from './postgres-errors.js';
import { advisoryUnlock, holdsAdvisoryLock } from './postgres-lock.js';
import type { AdvisoryKey } from './postgres-schema.js';
import type { StateLease } from './types.js';

/** The least time without a heartbeat before the server ends a lease session (a loaded machine stalls for seconds). */
export const MIN_LEASE_TTL_MS = 5_000;

/** Heartbeats per lease time: a stall of up to two of them loses nothing. */
const HEARTBEATS_PER_TTL = 4;

/**
 * Session settings of a lease connection: the server notices a vanished holder (host down, network
 * cut) by its keepalives, and a paused or hung holder by its silence (idle_session_timeout: a session
 * that sends nothing for the lease time is ended). An older server without the setting keeps the rest.
 */
export async function prepareLeaseSession(client: pg.Client, ttlMs: number): Promise<void> {
  const settings = [
    'SET tcp_keepalives_idle = 10',
    'SET tcp_keepalives_interval = 5',
    'SET tcp_keepalives_count = 3',
    `SET idle_session_timeout = ${Math.round(ttlMs)}`,
  ];
  for (const sql of settings) {
    try {
      await client.query(sql);
    } catch (err) {
      if (errorCode(err) !== '42704') throw err; // undefined_object: no such setting on this server
    }
  }
}

/** A watch lease as the backend holds it: the connection the state lock is then taken on, and why it was lost (once it is). */
export interface HeldLease extends StateLease {
  readonly client: pg.Client;
  readonly lost: string | undefined;
}

/** A lease on a connection of its own: the heartbeat that keeps it, and why it was lost (once it is). */
export class LeaseSession implements HeldLease {
  private lostWhy: string | undefined;
  private readonly heartbeat: NodeJS.Timeout;
  private released = false;

  constructor(
    readonly client: pg.Client,
    private readonly key: AdvisoryKey,
    ttlMs: number,
    private readonly onLost: (why: string) => void,
  ) {
    serializeQueries(client);
    client.on('error', (err: Error) => this.lose(`the connection failed: ${err.message}`));
    client.on('end', () => this.lose('the connection closed'));
    this.heartbeat = setInterval(
      () => {
        void this.held();
      },
      Math.max(100, Math.floor(ttlMs / HEARTBEATS_PER_TTL)),
    );
    // The heartbeat alone never keeps a process alive: the watch loop does.
    this.heartbeat.unref();
  }

  get lost(): string | undefined {
    return this.lostWhy;
  }

  async held(): Promise<boolean> {
    if (this.lostWhy !== undefined || this.released) return false;
    try {
      if (await holdsAdvisoryLock(this.client, this.key)) return true;
      this.lose('the session no longer holds the lease');
    } catch (err) {
      this.lose(`the heartbeat failed: ${(err as Error).message}`);
    }
    return false;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.heartbeat);
    try {
      if (this.lostWhy === undefined) await advisoryUnlock(this.client, this.key);
    } catch {
      // The connection failed: the server drops the lease with it, so it is released either way.
    } finally {
      await this.client.end().catch(() => undefined);
    }
  }

  private lose(why: string): void {
    if (this.lostWhy !== undefined || this.released) return;
    this.lostWhy = why;
    clearInterval(this.heartbeat);
    this.onLost(why);
  }
}

/**
 * One query at a time on the lease's connection: the heartbeat runs beside the cycle's reads, writes
 * and fencing checks on the same connection, and pg deprecates issuing a query while another runs.
 * Returns how long the connection has been idle (0 while a query is queued or running): a heartbeat
 * is due only on a connection the cycles left quiet.
 */
export function serializeQueries(client: pg.Client): () => number {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0;
  let idleSince = Date.now();
  const queued = (...args: unknown[]): Promise<unknown> => {
    pending++;
    const run = tail.then(() => query(...args));
    tail = run
      .catch(() => undefined)
      .finally(() => {
        if (--pending === 0) idleSince = Date.now();
      });
    return run;
  };
  // The promise form is the only one moor uses; pg's overloads (callbacks, submittables) cannot be typed through a wrapper.
  client.query = queued as unknown as pg.Client['query'];
  return () => (pending > 0 ? 0 : Date.now() - idleSince);
}
