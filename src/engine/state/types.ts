// What state keeps per address, and the backend contract (file, PostgreSQL).
import type { JsonObject, JsonValue } from '../../core/json.js';

export interface ResourceRecord {
  readonly kind: string;
  readonly name: string;
  /** The service's identifier (ARM id, dataset id, auth context id); absent for jobs and checks. */
  readonly id?: string;
  /**
   * The spec last applied, resolved, with every sensitive value replaced by its salted hash
   * string 'sha256:<salt>:<hex>' (see secrets.ts). Never a secret in clear.
   */
  readonly lastApplied: JsonObject;
  /** The live representation after the last apply (secrets absent): what ${ref:} reads. */
  readonly outputs?: JsonObject;
  readonly protect?: boolean;
  /**
   * The addresses this resource depended on when last recorded (metadata.dependsOn and `${ref:}`
   * targets): prune deletes dependents before what they depend on. Absent in older state files.
   */
  readonly dependsOn?: readonly string[];
  /**
   * A change sent but not yet confirmed (recorded before the request, so a crash leaves a trace):
   * the next run uses it to find what an interrupted create made instead of making another.
   */
  readonly pending?: { readonly action: 'create' | 'update' | 'replace'; readonly since: string };
  /** For jobs: the runs made, newest last. */
  readonly runs?: JsonObject[];
  readonly updatedAt: string;
}

export interface StateDocument {
  readonly version: 1;
  /** Grows by one with every write; a saved plan records it. */
  readonly serial: number;
  readonly resources: Readonly<Record<string, ResourceRecord>>;
  /** Free-form data of other features (e.g. notification message ids per stack). */
  readonly extras?: JsonObject;
}

/** The record at `address`, or undefined: state holds only the addresses recorded so far. */
export function recordAt(state: StateDocument, address: string): ResourceRecord | undefined {
  return state.resources[address];
}

/** A lock file that --force removed without being able to read who held it. */
export interface UnreadableLock {
  readonly unreadableFile: string;
}

export interface LockInfo {
  readonly id: string;
  readonly who: string;
  readonly pid: number;
  readonly host: string;
  readonly operation: string;
  readonly since: string;
  /**
   * When the holding process started (ISO 8601; file locks): with the pid, it names the process
   * exactly, so a lock this very process left behind (its release failed) or a dead process whose pid
   * was reused is recognised. Absent in older lock files.
   */
  readonly started?: string;
}

/**
 * How much history is kept (history.keep, history.maxBytes): the newest runs up to both, the newest
 * one whatever its size; reads take no more than that either, however large the store grew before.
 */
export interface HistoryLimit {
  readonly keep: number;
  readonly maxBytes: number;
}

/** What the config does not say: 1,000 runs, 8 MiB. */
export const DEFAULT_HISTORY_LIMIT: HistoryLimit = { keep: 1000, maxBytes: 8 * 1024 * 1024 };

/** One change to a state document, as apply makes them one by one. */
export type StateChange =
  | { readonly op: 'put'; readonly address: string; readonly record: ResourceRecord }
  | { readonly op: 'remove'; readonly address: string }
  | { readonly op: 'extras'; readonly key: string; readonly value: JsonValue };

/** A state document without its serial: what a writer hands a backend, which numbers it. */
export type WholeDocument = Omit<StateDocument, 'serial' | 'version'>;

export interface WriteOptions {
  /** Write without pretty-printing: for the frequent writes of apply, where speed matters more than reading. */
  readonly compact?: boolean;
}

/**
 * A place that keeps state. read() may be called without the lock; writes require it.
 * write() is atomic: a crash leaves the old or the new document, never a torn one.
 */
export interface StateBackend {
  /** Human-readable location for messages ('.moor/state.json', 'postgres://host/db'). */
  readonly location: string;
  read(): Promise<StateDocument>;
  /** Writes a document with serial = previous serial + 1 and returns it. */
  write(next: Omit<StateDocument, 'serial'>, options?: WriteOptions): Promise<StateDocument>;
  /**
   * Optional fast path for apply: makes a batch of changes durable without rewriting the whole
   * document (the file backend appends them to a journal), as one write: serial + 1.
   * Returns the new serial. Backends without it get whole-document writes. `whole`: the document
   * with these changes made (and possibly later ones), for a backend that folds its journal into
   * a whole document now and then without reading it back.
   */
  appendChanges?(changes: readonly StateChange[], whole?: () => WholeDocument): Promise<number>;
  /** Takes the lock or throws a UserError naming the holder and since when. waitMs: how long to keep trying. */
  lock(operation: string, waitMs?: number): Promise<LockInfo>;
  unlock(lock: LockInfo): Promise<void>;
  /**
   * Fencing: throws a UserError ('lost the state lock (taken over by …)') when this run took the
   * lock and no longer holds it; does nothing while it holds it, or when it never took it.
   */
  assertLockHeld?(): Promise<void>;
  /**
   * The history of applies (moor history), oldest first: kept beside the state document, not in it,
   * so recording a run moves no serial. Backends without it keep no history.
   */
  readHistory?(limit?: HistoryLimit): Promise<JsonObject[]>;
  /** Appends runs, keeping the newest within `limit`; fenced like a state write (a run that lost its lock records nothing). */
  appendHistory?(runs: readonly JsonObject[], limit: HistoryLimit): Promise<void>;
  /**
   * moor watch: takes this process's lease on the workspace, or returns undefined while another process
   * holds it (with `replicas`, the others stand by and try again; without, the backend refuses with a
   * UserError naming the holder instead). While the lease is held, the state lock is taken through it, so a
   * process that loses its lease (ended, paused past `ttlMs`, cut off) has lost its lock too and writes nothing.
   */
  takeLease?(operation: string, ttlMs: number, fleet?: FleetMembership): Promise<StateLease | undefined>;
  /** Several processes may share the workspaces of this backend through leases (PostgreSQL); else one at a time. */
  readonly replicas?: boolean;
  /**
   * moor watch replicas: joins the fleet of replicas sharing this backend's store (or returns this process's
   * membership, shared by every backend of the same store and replica). A lease taken with the membership
   * lives on its session, so a replica that dies or goes silent loses its membership and its leases at once.
   */
  joinFleet?(replica: ReplicaCard, ttlMs: number): Promise<FleetSeat>;
  /**
   * PostgreSQL: what workspaces of `database` record (the ownership check of a plan), read through this
   * backend's own connection (the lock's while it is held); undefined when `database` is not this backend's.
   * A plan asks it rather than opening a connection of its own: a watch plans its stacks every interval.
   */
  recordedIdsIn?(database: string, workspaces: readonly string[], known: ReadonlyMap<string, number>): Promise<Map<string, WorkspaceIds>> | undefined;
  /** Clears a stale lock; without force, only one whose holder process is gone. */
  forceUnlock(force: boolean): Promise<LockInfo | UnreadableLock | undefined>;
  close(): Promise<void>;
}

/** What a workspace's state records, as the ownership check needs it. */
export interface WorkspaceIds {
  readonly serial: number;
  readonly version: number;
  /** The stack the state records (extras.stack), if any. */
  readonly stack?: string;
  /** [service id, address] of each record that has an id. */
  readonly ids: (readonly [string, string])[];
}

/** A process's claim on a workspace for moor watch (StateBackend.takeLease). */
export interface StateLease {
  /** Whether the lease is still this process's (asks the store); false for good once it was lost. */
  held(): Promise<boolean>;
  /** Gives the lease up (any state lock taken through it must be released first). */
  release(): Promise<void>;
  /** Leases taken through a fleet: how many times the workspace's lease was taken, this one included (a fencing token). */
  readonly epoch?: number;
}

/** A replica of moor watch as it introduces itself to the fleet. */
export interface ReplicaCard {
  /** Stable across restarts (--replica-id): a replica that comes back with its id gets its stacks back. */
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  /** Where it serves /api/status and the dashboard, when it does. */
  readonly listen?: string;
}

/** A backend's place in the fleet: the membership (shared by the backends of one store) and its workspace's name in it. */
export interface FleetSeat {
  readonly membership: FleetMembership;
  readonly name: string;
}

/** One process's membership of the fleet of replicas sharing a store: a heartbeat, and a look at the others. */
export interface FleetMembership {
  /** The store (the database, without the workspace); backends of one store share one membership. */
  readonly store: string;
  readonly replica: ReplicaCard;
  /** Why the membership's session ended (every lease taken through it went with it); undefined while it lasts. */
  readonly lost: string | undefined;
  /** The lease time the store keeps (at least the one asked for: a store may have a floor), in milliseconds. */
  readonly leaseMs: number;
  /** The replicas (live, and those gone recently) and which replica holds the lease of each of `names`. */
  survey(names: readonly string[]): Promise<FleetSurvey>;
  /** Leaves the fleet (after the leases were released): the others share the stacks without it at once. */
  leave(): Promise<void>;
}

export interface FleetSurvey {
  readonly replicas: readonly FleetReplica[];
  /** Workspace name -> id of the live replica holding its lease (free workspaces are absent). */
  readonly holders: ReadonlyMap<string, string>;
}

export interface FleetReplica {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly listen: string | null;
  readonly startedAt: string;
  readonly heartbeatAt: string;
  /** Its heartbeat is recent and its session is connected: it takes part in the share. */
  readonly live: boolean;
}
