// moor watch replicas as a fleet: every few seconds this replica beats its heart in the store, looks at
// the live replicas and who holds which stack, computes the fair share (fleet-share.ts) and acts on its own
// part: it takes the free stacks given to it and hands over, between cycles and never in the middle of one,
// the stacks it holds beyond its share. A replica that dies or goes silent loses its session, and with it its
// membership and every lease; the others see it gone at their next look and take its stacks.
// Stacks whose backend has no fleet (a state file) are leased as before (stack-leases.ts).
import type { FleetMembership, FleetReplica, FleetSeat, ReplicaCard, StateBackend, StateLease } from '../engine/state/types.js';
import { shareStacks } from './fleet-share.js';
import { StackLeases } from './stack-leases.js';
import type { StackTarget } from './stack-loop.js';

/** The operation a lease names (as locks do). */
const OPERATION = 'moor watch';
/** The least time between two looks at the fleet. */
const MIN_TICK_MS = 250;

export interface FleetOptions {
  readonly replica: ReplicaCard;
  readonly intervalMs: number;
  /** How long a replica may stay silent (paused, cut off) before its membership and leases go. */
  readonly ttlMs: number;
  readonly log: (stack: StackTarget | undefined, line: string) => void;
  /** Whether a cycle of the stack is in flight: its lease is not handed over then. */
  readonly busy: (stack: StackTarget) => boolean;
  /** This replica took the stack's lease: reconcile it soon. */
  readonly wake: (stack: StackTarget) => void;
  /** The lease's fencing token while this replica holds it (requests carry it), undefined once it does not. */
  readonly onLease?: (stack: StackTarget, epoch: number | undefined) => void;
  readonly onHandover?: (direction: 'in' | 'out') => void;
  readonly onReplicas?: (live: number) => void;
}

/** A backend whose stacks replicas share: it joins their fleet and takes leases through it. */
type FleetBackend = StateBackend & Required<Pick<StateBackend, 'joinFleet' | 'takeLease'>>;

function isFleetBackend(backend: StateBackend): backend is FleetBackend {
  return backend.joinFleet !== undefined && backend.takeLease !== undefined;
}

/** One stack as the fleet keeps it. */
interface Seat {
  readonly stack: StackTarget;
  readonly backend: FleetBackend;
  /** This replica's membership of the fleet of the stack's store, and the stack's name in that store. */
  joined?: FleetSeat;
  lease?: StateLease;
  /** The membership the lease was taken through: when its session ends, the lease is gone too. */
  leaseVia?: FleetMembership;
  /** Taking or giving up its lease: a cycle's claim waits for it. */
  op: Promise<unknown>;
  /** The replica the last look's share gives the stack to. */
  owner?: string;
  /** When the stack was first seen with no holder (a stack nobody takes is taken anyway after an interval). */
  freeSince?: number;
}

/** A seat that joined its store's fleet. */
type JoinedSeat = Seat & { joined: FleetSeat };

function isJoined(seat: Seat): seat is JoinedSeat {
  return seat.joined !== undefined;
}

export interface FleetStatus {
  readonly replica: string;
  readonly replicas: readonly (FleetReplica & { readonly self: boolean; readonly holds: readonly (string | undefined)[] })[];
  readonly stacks: number;
  readonly surveyedAt: string | null;
}

export class ReplicaFleet {
  private readonly seats = new Map<StackTarget, Seat>();
  private readonly standalone: StackLeases;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopping = false;
  private lastLook: { replicas: readonly FleetReplica[]; holders: Map<string, string>; at: Date } | undefined;
  private readonly lostTold = new Set<FleetMembership>();

  constructor(private readonly o: FleetOptions) {
    this.standalone = new StackLeases(o.ttlMs, (s, line) => o.log(s, line));
  }

  /** A quarter of the interval or of the lease time the stores keep (a store may have a floor: 5 s on PostgreSQL), whichever is shorter. */
  get tickMs(): number {
    const kept = [...this.seats.values()].flatMap((s) => (s.joined ? [s.joined.membership.leaseMs] : []));
    const leaseMs = kept.length > 0 ? Math.min(...kept) : this.o.ttlMs;
    return Math.max(MIN_TICK_MS, Math.floor(Math.min(this.o.intervalMs, leaseMs) / 4));
  }

  /** Joins the fleet of each store, takes this replica's first share, and looks again every tick. */
  async start(stacks: readonly StackTarget[]): Promise<void> {
    const fleetless = stacks.filter((s) => !isFleetBackend(s.session.backend));
    await this.standalone.start(fleetless);
    for (const stack of stacks) {
      const backend = stack.session.backend;
      if (isFleetBackend(backend)) this.seats.set(stack, { stack, backend, op: Promise.resolve() });
    }
    if (this.seats.size === 0) return;
    // The first look joins the stores: the pace of the next ones follows the lease time they keep.
    await this.tick();
    this.timer = setInterval(() => {
      void this.tick();
    }, this.tickMs);
  }

  /** Whether this replica reconciles the stack now: it holds its lease (a lease lost is said once and dropped). */
  async claim(stack: StackTarget): Promise<boolean> {
    const seat = this.seats.get(stack);
    if (!seat) return this.standalone.claim(stack);
    await seat.op;
    const lease = seat.lease;
    if (!lease) return false;
    // A cycle about to start is between cycles: a stack the share gives to another replica goes now, not at a later look.
    if (seat.owner !== undefined && seat.owner !== this.o.replica.id && !this.stopping) {
      await this.serial(seat, () => this.handOver(seat, seat.owner, undefined, true));
      return false;
    }
    if (await lease.held()) return true;
    if (seat.lease === lease)
      await this.drop(
        seat,
        'lost the lease (this replica was silent past the lease time, or its database session ended); another replica may reconcile the stack now',
      );
    return false;
  }

  holds(stack: StackTarget): boolean {
    const seat = this.seats.get(stack);
    return seat ? seat.lease !== undefined : this.standalone.holds(stack);
  }

  /** After the cycles in flight ended: every lease goes, and the replica leaves (the others share the stacks at once). */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    const seats = [...this.seats.values()];
    await Promise.all(seats.map((seat) => seat.op.then(() => this.drop(seat))));
    const memberships = new Set(seats.map((s) => s.joined?.membership).filter((m): m is FleetMembership => m !== undefined));
    await Promise.all([...memberships].map((m) => m.leave().catch(() => undefined)));
    await this.standalone.releaseAll();
  }

  /**
   * /api/status: the replicas this one saw at its last look, their heartbeats and the stacks each holds:
   * this replica's own as they are now (as `holds` says: a stack taken or handed over since the look
   * counts), the others' as the look found them.
   */
  status(): FleetStatus | undefined {
    if (this.seats.size === 0) return undefined;
    const look = this.lastLook;
    const me = this.o.replica.id;
    const holds = new Map<string, (string | undefined)[]>();
    for (const seat of this.seats.values()) {
      const seen = seat.joined ? look?.holders.get(seat.joined.name) : undefined;
      const holder = seat.lease !== undefined ? me : seen === me ? undefined : seen;
      if (holder !== undefined) holds.set(holder, [...(holds.get(holder) ?? []), seat.stack.name]);
    }
    return {
      replica: this.o.replica.id,
      replicas: (look?.replicas ?? []).map((r) => ({ ...r, self: r.id === me, holds: holds.get(r.id) ?? [] })),
      stacks: this.seats.size,
      surveyedAt: look?.at.toISOString() ?? null,
    };
  }

  /** One look at the fleet and this replica's part of the share; ticks never overlap. */
  private tick(): Promise<void> {
    if (this.ticking || this.stopping) return this.ticking ?? Promise.resolve();
    this.ticking = this.rebalance()
      .catch((err: unknown) => this.o.log(undefined, `moor watch: could not look at the other replicas: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        this.ticking = undefined;
      });
    return this.ticking;
  }

  private async rebalance(): Promise<void> {
    await this.seatAll();
    const groups = new Map<FleetMembership, JoinedSeat[]>();
    for (const seat of this.seats.values()) {
      if (!isJoined(seat)) continue;
      groups.set(seat.joined.membership, [...(groups.get(seat.joined.membership) ?? []), seat]);
    }
    for (const [membership, seats] of groups) await this.rebalanceStore(membership, seats);
  }

  /** Joins (again, after the session ended) the fleet of each stack's store. */
  private async seatAll(): Promise<void> {
    for (const seat of this.seats.values()) {
      const m = seat.joined?.membership;
      if (m && m.lost === undefined) continue;
      if (m && !this.lostTold.has(m)) {
        this.lostTold.add(m);
        this.o.log(undefined, `moor watch: this replica's session with the state ended (${m.lost}): its leases went with it; joining the replicas again`);
      }
      seat.joined = await seat.backend.joinFleet(this.o.replica, this.o.ttlMs);
    }
  }

  private async rebalanceStore(membership: FleetMembership, seats: readonly JoinedSeat[]): Promise<void> {
    const names = seats.map((s) => s.joined.name);
    const look = await membership.survey(names);
    const me = this.o.replica.id;
    const holders = new Map(look.holders);
    for (const seat of seats) if (seat.lease && seat.leaseVia?.lost === undefined) holders.set(seat.joined.name, me);
    const live = look.replicas.filter((r) => r.live).map((r) => r.id);
    if (!live.includes(me)) live.push(me);
    this.lastLook = { replicas: look.replicas, holders, at: new Date() };
    this.o.onReplicas?.(live.length);
    const share = shareStacks({ stacks: names, replicas: live, holders });
    const now = Date.now();
    await Promise.all(
      seats.map((seat) => {
        const owner = share.get(seat.joined.name);
        seat.owner = owner;
        const holder = holders.get(seat.joined.name);
        if (holder !== undefined) seat.freeSince = undefined;
        else seat.freeSince ??= now;
        // A lease whose session ended is dropped between cycles (a cycle in flight is fenced: it writes nothing more).
        if (seat.lease && seat.leaseVia?.lost !== undefined) {
          return this.o.busy(seat.stack)
            ? Promise.resolve()
            : this.serial(seat, () => this.drop(seat, "lost the lease with this replica's session; taking the share again"));
        }
        if (seat.lease && owner !== me && !this.o.busy(seat.stack) && !this.stopping) {
          return this.serial(seat, () => this.handOver(seat, owner, live.length));
        }
        // A stack no replica took for an interval (its owner does not watch it, or cannot reach it) is taken anyway.
        const unclaimed = seat.freeSince !== undefined && now - seat.freeSince >= this.o.intervalMs;
        if (!seat.lease && holder === undefined && (owner === me || unclaimed)) return this.serial(seat, () => this.take(seat, membership));
        return Promise.resolve();
      }),
    );
  }

  /** Runs `op` on the seat after the one in flight (a cycle's claim waits for it too). */
  private serial(seat: Seat, op: () => Promise<void>): Promise<void> {
    const run = seat.op
      .then(op)
      .catch((err: unknown) => this.o.log(seat.stack, `could not take or hand over the lease: ${err instanceof Error ? err.message : String(err)}`));
    seat.op = run;
    return run;
  }

  private async take(seat: Seat, membership: FleetMembership): Promise<void> {
    if (seat.lease || this.stopping || membership.lost !== undefined) return;
    const lease = await seat.backend.takeLease(OPERATION, this.o.ttlMs, membership);
    if (!lease) return;
    this.o.onHandover?.('in');
    seat.lease = lease;
    seat.leaseVia = membership;
    seat.freeSince = undefined;
    this.o.onLease?.(seat.stack, lease.epoch);
    this.o.log(seat.stack, `took the lease${lease.epoch !== undefined ? ` (lease ${lease.epoch})` : ''}: this replica reconciles the stack`);
    this.o.wake(seat.stack);
  }

  /** Between cycles: the lease goes, and the replica the share names takes the stack at its next look. */
  private async handOver(seat: Seat, to: string | undefined, replicas: number | undefined, atCycleStart = false): Promise<void> {
    if (!seat.lease || (this.o.busy(seat.stack) && !atCycleStart) || this.stopping) return;
    // Another look may have found the stack this replica's again meanwhile; the next one decides.
    // Counted as the lease is let go, so that /metrics and /api/status tell the same.
    this.o.onHandover?.('out');
    await this.drop(seat);
    this.o.log(
      seat.stack,
      `handed the stack over${to ? ` to replica ${to}` : ''}${replicas !== undefined ? ` (${replicas} replicas share the stacks)` : ' (the replicas share the stacks again)'}`,
    );
  }

  private async drop(seat: Seat, why?: string): Promise<void> {
    const lease = seat.lease;
    if (!lease) return;
    seat.lease = undefined;
    seat.leaseVia = undefined;
    this.o.onLease?.(seat.stack, undefined);
    if (why) this.o.log(seat.stack, why);
    await lease.release().catch(() => undefined);
  }
}
