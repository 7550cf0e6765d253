// Apply starts every ready step at once (up to stepsInFlight), and each step prepares its request
// (resolves its spec, records its intent, builds the body) before its first await. Two hundred
// ready steps prepared in one turn of the event loop delay the first request until all are ready,
// although only `parallelism` requests can be in flight. The pacer lets a few steps through per
// turn and the rest in the turns after, most urgent first, so the first requests go out at once and
// the other steps are prepared while those are in flight.
import { PriorityQueue } from '../../core/priority-queue.js';

interface Waiting {
  readonly priority: number;
  readonly seq: number;
  readonly go: () => void;
}

export class TurnPacer {
  private passed = 0;
  private seq = 0;
  private turnScheduled = false;
  private readonly waiting = new PriorityQueue<Waiting>((a, b) => a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq));

  /** `perTurn`: steps let through in one turn of the event loop. */
  constructor(private readonly perTurn: number) {}

  /** Undefined when the step may go on in this turn; otherwise resolves in a later turn, most urgent first. */
  turn(priority: number): Promise<void> | undefined {
    this.nextTurn();
    if (this.passed < this.perTurn && this.waiting.size === 0) {
      this.passed++;
      return undefined;
    }
    return new Promise<void>((go) => this.waiting.push({ priority, seq: this.seq++, go }));
  }

  /** At the next turn the count starts again and the most urgent waiting steps go. */
  private nextTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    setImmediate(() => {
      this.turnScheduled = false;
      this.passed = 0;
      while (this.passed < this.perTurn) {
        const next = this.waiting.pop();
        if (!next) break;
        this.passed++;
        next.go();
      }
      if (this.waiting.size > 0 || this.passed > 0) this.nextTurn();
    });
  }
}
