// moor watch replicas: which replica reconciles which stack. Every replica computes the same share from
// the same look at the fleet (live replicas, who holds which lease) and acts on its own part only: it
// takes the free stacks given to it and hands over the ones it holds beyond its share.
//
// The share is fair (each live replica holds stacks ÷ replicas, rounded down or up) and moves as few
// stacks as it can: a replica keeps what it holds up to its share, and the free stacks and those of
// replicas over their share go by rendezvous (highest random weight) hashing of (stack, replica) to the
// replicas under their share, each over-share replica giving up only as many as it is over. A replica that joins takes only its share; one that leaves has only its stacks
// spread; one that comes back with its id ranks its old stacks highest again and gets them back.
import { createHash } from 'node:crypto';
import { BoundedMap } from '../core/bounded-map.js';

export interface FleetLook {
  /** Every stack of the fleet (by its name in the store: its workspace). */
  readonly stacks: readonly string[];
  /** The ids of the live replicas. */
  readonly replicas: readonly string[];
  /** Stack -> the live replica holding its lease. */
  readonly holders: ReadonlyMap<string, string>;
}

/** Stack -> the replica that should reconcile it. Empty without live replicas. */
export function shareStacks(look: FleetLook): Map<string, string> {
  const replicas = [...new Set(look.replicas)].sort();
  const share = new Map<string, string>();
  if (replicas.length === 0) return share;
  const held = new Map<string, string[]>(replicas.map((r) => [r, []]));
  for (const stack of look.stacks) {
    const holder = look.holders.get(stack);
    if (holder !== undefined) held.get(holder)?.push(stack);
  }
  const quota = quotas(look.stacks.length, replicas, held);
  const need = new Map(replicas.map((r) => [r, Math.max(0, count(quota, r) - heldCount(held, r))]));
  const excess = new Map(replicas.map((r) => [r, Math.max(0, heldCount(held, r) - count(quota, r))]));
  // What can move: the free stacks, and the stacks of replicas over their share (as many as they are over).
  const movable = look.stacks.filter((s) => {
    const holder = look.holders.get(s);
    return holder === undefined || !held.has(holder) || count(excess, holder) > 0;
  });
  // By rendezvous: first the stacks that go to their place in the share these replicas would have from scratch
  // (so that a replica back after a restart gets its own stacks again, not others of equal weight), then the
  // (stack, replica under its share) pairs of highest weight.
  const ideal = idealShare(look.stacks, replicas);
  const pairs: { stack: string; replica: string; home: boolean; w: Buffer }[] = [];
  for (const stack of movable)
    for (const r of replicas) if (count(need, r) > 0) pairs.push({ stack, replica: r, home: ideal.get(stack) === r, w: weight(stack, r) });
  pairs.sort((a, b) => Number(b.home) - Number(a.home) || compareWeights(b.w, a.w) || (a.stack < b.stack ? -1 : 1));
  for (const p of pairs) {
    if (share.has(p.stack) || count(need, p.replica) <= 0) continue;
    const donor = look.holders.get(p.stack);
    const from = donor !== undefined && held.has(donor) ? donor : undefined;
    if (from !== undefined && count(excess, from) <= 0) continue;
    share.set(p.stack, p.replica);
    need.set(p.replica, count(need, p.replica) - 1);
    if (from !== undefined) excess.set(from, count(excess, from) - 1);
  }
  // Everything else stays where it is.
  for (const stack of look.stacks) {
    const holder = look.holders.get(stack);
    if (!share.has(stack) && holder !== undefined && held.has(holder)) share.set(stack, holder);
  }
  return share;
}

/**
 * The share of `replicas` from scratch, with nobody holding anything: by rendezvous, the (stack, replica) pairs
 * of highest weight first, each replica up to stacks ÷ replicas (one more for the first by id, as many as the
 * division leaves over). The same on every replica and across restarts: a function of the names alone.
 */
function idealShare(stacks: readonly string[], replicas: readonly string[]): Map<string, string> {
  const quota = quotas(stacks.length, replicas, new Map(replicas.map((r) => [r, []])));
  const pairs: { stack: string; replica: string; w: Buffer }[] = [];
  for (const stack of stacks) for (const r of replicas) pairs.push({ stack, replica: r, w: weight(stack, r) });
  pairs.sort((a, b) => compareWeights(b.w, a.w) || (a.stack < b.stack ? -1 : 1));
  const share = new Map<string, string>();
  for (const p of pairs) {
    if (share.has(p.stack) || count(quota, p.replica) <= 0) continue;
    share.set(p.stack, p.replica);
    quota.set(p.replica, count(quota, p.replica) - 1);
  }
  return share;
}

/**
 * Each replica's share: stacks ÷ replicas rounded down, and one more for as many replicas as the division
 * leaves stacks over: those holding the most now (then by id), so that nobody gives up a stack for it.
 */
function quotas(stacks: number, replicas: readonly string[], held: ReadonlyMap<string, readonly string[]>): Map<string, number> {
  const base = Math.floor(stacks / replicas.length);
  let extra = stacks % replicas.length;
  const order = [...replicas].sort((a, b) => heldCount(held, b) - heldCount(held, a) || (a < b ? -1 : 1));
  const quota = new Map<string, number>();
  for (const r of order) quota.set(r, base + (extra-- > 0 ? 1 : 0));
  return quota;
}

/** A replica's number in a map of every replica (quota, need, excess): 0 for one it does not name. */
function count(counts: ReadonlyMap<string, number>, replica: string): number {
  return counts.get(replica) ?? 0;
}

/** How many stacks a replica holds now. */
function heldCount(held: ReadonlyMap<string, readonly string[]>, replica: string): number {
  return held.get(replica)?.length ?? 0;
}

/** Weights computed (a survey every few seconds asks for the same ones), dropped when they grow past a bound. */
const weights = new BoundedMap<string, Buffer>(100_000);

/** The rendezvous weight of a stack for a replica: the same on every replica, and for every version of moor. */
export function weight(stack: string, replica: string): Buffer {
  const key = `${stack}\u0000${replica}`;
  return weights.getOrMake(key, () => createHash('sha256').update(key).digest().subarray(0, 8));
}

function compareWeights(a: Buffer, b: Buffer): number {
  return Buffer.compare(a, b);
}
