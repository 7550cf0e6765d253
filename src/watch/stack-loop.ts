// moor watch: the loop of one stack — a cycle every interval (jittered), sooner after a manifest change,
// later after failures (exponential backoff) — and what it remembers between cycles.
import type { Session } from '../engine/session.js';
import { backoff, jittered } from './duration.js';
import { reconcileOnce, type CycleReport, type ReconcileOptions } from './reconcile.js';

/** How soon after a manifest file changes the stack plans (changes usually come in bursts: an editor, a git pull). */
export const CHANGE_DEBOUNCE_MS = 300;

/** After this many cycles in a row that could not run (state locked or unreachable, no plan made), the watch is not ready. */
export const STALLED_CYCLES = 3;

export interface StackTarget {
  /** The stack's name; unset for the manifests given without stacks. */
  readonly name?: string;
  readonly session: Session;
  readonly options: Omit<ReconcileOptions, 'signal'>;
  /** Reads moor.config.yaml again before each cycle (a changed variable is planned with at once); throws a UserError when it cannot. */
  readonly refreshConfig?: () => void;
}

/** Told once per new finding of a stack and once when it is resolved, never every cycle. */
export type FindingListener = (stack: StackTarget, change: 'found' | 'resolved', report: CycleReport) => void | Promise<void>;

export interface StackLoopOptions {
  readonly intervalMs: number;
  readonly signal: AbortSignal;
  readonly onCycle: (stack: StackTarget, report: CycleReport, seconds: number) => void;
  readonly onFinding: FindingListener;
  /** Replicas: whether this process may reconcile the stack now (holds its lease). Without: always. */
  readonly claim?: (stack: StackTarget) => Promise<boolean>;
}

/** What /api/status shows of a stack. */
export interface StackState {
  /** Unset for the manifests given without stacks. */
  readonly name?: string;
  readonly runs: number;
  readonly failures: number;
  readonly lastReport?: CycleReport;
  readonly lastRunAt?: string;
  readonly lastSuccessAt?: string;
  readonly nextRunAt?: string;
  /** This replica does not hold the stack's lease: another one reconciles it. */
  readonly standby: boolean;
  /** Cycles in a row that could not run: skipped on a held state lock, or failed before a plan was made. */
  readonly stalled: number;
}

export class StackLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private rerun = false;
  private runs = 0;
  private failures = 0;
  private findingKey = '';
  private lastReport: CycleReport | undefined;
  private lastRunAt: Date | undefined;
  private lastSuccessAt: Date | undefined;
  private nextRunAt: Date | undefined;
  private standby = false;
  private stalled = 0;

  constructor(
    readonly target: StackTarget,
    private readonly options: StackLoopOptions,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** A manifest changed: plan soon, without waiting for the interval (once more after a cycle in flight). */
  changed(): void {
    if (this.running) this.rerun = true;
    else this.schedule(CHANGE_DEBOUNCE_MS);
  }

  /** Stops scheduling and waits for the cycle in flight (its apply finishes the steps in flight and records them). */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** A cycle is in flight (planning or applying): its lease is not handed over now. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** This replica just took the stack's lease: reconcile it now rather than at the next interval. */
  wake(): void {
    if (!this.running && !this.options.signal.aborted) this.schedule(0);
  }

  get completedOnce(): boolean {
    return this.runs > 0 || this.standby;
  }

  /** Why the stack's cycles cannot run now (for /readyz), or undefined. */
  get stalledReason(): string | undefined {
    if (this.stalled < STALLED_CYCLES) return undefined;
    const why = this.lastReport?.error ?? this.lastReport?.result ?? 'unknown';
    return `${this.stalled} cycles in a row could not run: ${why}`;
  }

  state(): StackState {
    const iso = (d: Date | undefined) => d?.toISOString();
    return {
      name: this.target.name,
      runs: this.runs,
      failures: this.failures,
      standby: this.standby,
      stalled: this.stalled,
      ...(this.lastReport ? { lastReport: this.lastReport } : {}),
      ...(this.lastRunAt ? { lastRunAt: iso(this.lastRunAt) } : {}),
      ...(this.lastSuccessAt ? { lastSuccessAt: iso(this.lastSuccessAt) } : {}),
      ...(this.nextRunAt ? { nextRunAt: iso(this.nextRunAt) } : {}),
    };
  }

  private schedule(delayMs: number): void {
    if (this.options.signal.aborted) return;
    if (this.timer) clearTimeout(this.timer);
    this.nextRunAt = new Date(Date.now() + delayMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.cycle().finally(() => {
        this.running = undefined;
      });
    }, delayMs);
  }

  private async cycle(): Promise<void> {
    let delay = jittered(this.options.intervalMs);
    try {
      const claim = await this.claim();
      if (claim === false) {
        // Another replica reconciles the stack: what this one saw last is no longer the stack's result.
        this.standby = true;
        this.lastReport = undefined;
        this.failures = 0;
        this.stalled = 0;
        return;
      }
      this.standby = false;
      const started = process.hrtime.bigint();
      const report = claim === true ? await this.reconcile() : claim;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.runs++;
      this.lastReport = report;
      this.stalled = report.result === 'locked' || (report.result === 'failed' && !report.plan) ? this.stalled + 1 : 0;
      this.lastRunAt = new Date();
      if (report.result === 'failed') {
        this.failures++;
        delay = jittered(backoff(this.options.intervalMs, this.failures));
      } else if (report.result !== 'locked') {
        this.failures = 0;
        this.lastSuccessAt = this.lastRunAt;
      }
      this.options.onCycle(this.target, report, seconds);
      if (report.result !== 'locked') await this.tellFinding(report);
    } finally {
      if (this.rerun) {
        this.rerun = false;
        delay = Math.min(delay, CHANGE_DEBOUNCE_MS);
      }
      this.schedule(delay);
    }
  }

  /** Whether this replica reconciles the stack now; a lease that could not be asked for is a failed cycle. */
  private async claim(): Promise<boolean | CycleReport> {
    if (!this.options.claim) return true;
    try {
      return await this.options.claim(this.target);
    } catch (err) {
      const message = `could not take the lease: ${err instanceof Error ? err.message : String(err)}`;
      return { result: 'failed', findings: [message], error: message };
    }
  }

  private async reconcile(): Promise<CycleReport> {
    try {
      this.target.refreshConfig?.();
      return await reconcileOnce(this.target.session, { ...this.target.options, signal: this.options.signal });
    } catch (err) {
      // One stack's failure (bad manifests, an unreachable service, a bug) never stops the loop or the other stacks.
      const message = err instanceof Error ? err.message : String(err);
      return { result: 'failed', findings: [message], error: message };
    }
  }

  private async tellFinding(report: CycleReport): Promise<void> {
    const key = report.findings.join('\n');
    if (key === this.findingKey) return;
    const change = key === '' ? 'resolved' : 'found';
    this.findingKey = key;
    try {
      await this.options.onFinding(this.target, change, report);
    } catch {
      // A failed notification is reported by the listener; the loop goes on.
    }
  }
}
