// Walks a dependency graph as Terraform's walker does: a step starts once everything it waits on
// has finished, the most urgent ready step first (critical path), and the dependents of a failure
// are skipped naming its root cause. At most `limit` steps run at once, so what apply holds grows
// with the work in flight, never with the size of the plan (a step not started holds no frame,
// no request body, no closure).
import { PriorityQueue } from '../../core/priority-queue.js';
import type { StepOutcome } from '../../core/events.js';

export interface GraphWalk {
  /** The steps, in the order their outcomes are returned; equal priorities start in this order. */
  readonly addresses: readonly string[];
  /** What a step waits for; addresses not among `addresses` are not waited for. */
  waitsOn(address: string): readonly string[];
  /** Higher starts first among ready steps. */
  priority(address: string): number;
  /** How many steps may run at once (a step skipped for a blocker does not run). */
  readonly limit: number;
  run(address: string): Promise<StepOutcome>;
  /** Whether an outcome keeps what waits on it from running. */
  blocks(outcome: StepOutcome): boolean;
  /** The outcome of a step that does not run because `blocker`, one of what it waits on, blocks it. */
  skip(address: string, blocker: StepOutcome): StepOutcome;
}

/** Runs every step once; resolves with their outcomes in `addresses` order, rejects when a run rejects. */
export function walkGraph(walk: GraphWalk): Promise<StepOutcome[]> {
  return new Promise((resolve, reject) => new Walker(walk, resolve, reject).start());
}

class Walker {
  private readonly index = new Map<string, number>();
  private readonly outcomes: (StepOutcome | undefined)[];
  /** Per step: how many of what it waits on have not finished. */
  private readonly unfinished: Int32Array;
  /** Per step: the steps waiting on it (dropped once it finished). */
  private readonly waiters: (number[] | undefined)[];
  private readonly priorities: Float64Array;
  private readonly ready: PriorityQueue<number>;
  private running = 0;
  private finished = 0;
  private pumping = false;
  private failed = false;

  constructor(
    private readonly walk: GraphWalk,
    private readonly resolve: (o: StepOutcome[]) => void,
    private readonly reject: (err: unknown) => void,
  ) {
    const n = walk.addresses.length;
    walk.addresses.forEach((a, i) => this.index.set(a, i));
    this.outcomes = new Array<StepOutcome | undefined>(n);
    this.unfinished = new Int32Array(n);
    this.waiters = Array.from({ length: n }, () => undefined);
    this.priorities = Float64Array.from(walk.addresses, (a) => walk.priority(a));
    this.ready = new PriorityQueue((a, b) => this.priorities[a] > this.priorities[b] || (this.priorities[a] === this.priorities[b] && a < b));
  }

  start(): void {
    const n = this.walk.addresses.length;
    for (let i = 0; i < n; i++) {
      for (const j of this.dependenciesOf(i)) {
        this.unfinished[i]++;
        (this.waiters[j] ??= []).push(i);
      }
    }
    for (let i = 0; i < n; i++) if (this.unfinished[i] === 0) this.ready.push(i);
    if (n === 0) this.resolve([]);
    else this.pump();
  }

  /** What step i waits on, each once, by index. */
  private dependenciesOf(i: number): Set<number> {
    const deps = new Set<number>();
    for (const a of this.walk.waitsOn(this.walk.addresses[i])) {
      const j = this.index.get(a);
      if (j !== undefined && j !== i) deps.add(j);
    }
    return deps;
  }

  /** Starts ready steps while there is room; iterative, so a long chain of skips does not recurse. */
  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (!this.failed && this.running < this.walk.limit) {
        const next = this.ready.pop();
        if (next === undefined) break;
        this.begin(next);
      }
    } finally {
      this.pumping = false;
    }
  }

  private begin(i: number): void {
    const address = this.walk.addresses[i];
    // The first blocker in the order the step names what it waits on, as a sequential reader would find it.
    for (const a of this.walk.waitsOn(address)) {
      const j = this.index.get(a);
      const o = j === undefined ? undefined : this.outcomes[j];
      if (o && this.walk.blocks(o)) {
        this.finish(i, this.walk.skip(address, o));
        return;
      }
    }
    this.running++;
    this.walk.run(address).then(
      (o) => {
        this.running--;
        this.finish(i, o);
        this.pump();
      },
      (err: unknown) => {
        this.failed = true;
        this.reject(err);
      },
    );
  }

  private finish(i: number, outcome: StepOutcome): void {
    this.outcomes[i] = outcome;
    this.finished++;
    for (const j of this.waiters[i] ?? []) if (--this.unfinished[j] === 0) this.ready.push(j);
    this.waiters[i] = undefined;
    if (this.finished === this.walk.addresses.length) this.resolve(this.outcomes as StepOutcome[]);
  }
}
