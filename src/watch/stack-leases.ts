// moor watch replicas: which stacks this process reconciles. A stack is reconciled by the replica holding
// its lease in the state backend; the others stand by and try again every interval, so a dead replica's
// stacks are taken over within about an interval (its session ends with it) and a paused or cut-off one's
// after the lease time plus an interval.
import type { StateLease } from '../engine/state/types.js';
import type { StackTarget } from './stack-loop.js';

/** The operation a lease names (as locks do). */
const OPERATION = 'moor watch';

export class StackLeases {
  private readonly leases = new Map<StackTarget, StateLease>();

  /**
   * `ttlMs`: how long a replica may stay silent (paused, cut off) before its leases go.
   * `log`: taking, losing and handing over a stack are told once each.
   */
  constructor(
    private readonly ttlMs: number,
    private readonly log: (stack: StackTarget, line: string) => void,
  ) {}

  /**
   * At the start: a backend without replicas (a state file) is leased for the whole watch, and a second
   * watch on it is refused here (a UserError naming the first); with replicas, each stack is tried once.
   */
  async start(stacks: readonly StackTarget[]): Promise<void> {
    for (const stack of stacks) {
      if (stack.session.backend.takeLease) await this.claim(stack);
    }
  }

  /** Whether this replica holds the stack's lease now (taking it when free). Backends without leases: always. */
  async claim(stack: StackTarget): Promise<boolean> {
    const backend = stack.session.backend;
    if (!backend.takeLease) return true;
    const held = this.leases.get(stack);
    if (held && (await held.held())) return true;
    if (held) {
      this.leases.delete(stack);
      await held.release();
      this.log(
        stack,
        'lost the lease (this replica was silent past the lease time, or its database session ended); another replica may reconcile the stack now',
      );
    }
    const taken = await backend.takeLease(OPERATION, this.ttlMs);
    if (!taken) return false;
    this.leases.set(stack, taken);
    if (backend.replicas) this.log(stack, 'took the lease: this replica reconciles the stack');
    return true;
  }

  /** Whether this replica holds the stack's lease (as of the last claim). */
  holds(stack: StackTarget): boolean {
    return !stack.session.backend.takeLease || this.leases.has(stack);
  }

  /** Gives every lease up (after the cycles in flight ended): the other replicas take the stacks at their next try. */
  async releaseAll(): Promise<void> {
    const held = [...this.leases.values()];
    this.leases.clear();
    await Promise.all(held.map((l) => l.release().catch(() => undefined)));
  }
}
