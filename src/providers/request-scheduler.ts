// One run's request scheduler: every request of every client passes here just before it is sent.
// Per service, a cap on requests in flight (--parallelism), lowered on a 429 and raised again
// slowly (AIMD), and each request class paced by the service's own x-ms-ratelimit-remaining-*
// answers. Per throttling bucket (the service; for ARM each subscription), a 429's Retry-After
// pauses the whole bucket. Waiting requests go most urgent first (critical path).
// Pacing is per service, not per subscription: whether subscriptions share a bucket (the local
// cloud) or not (ARM), pacing them together never overruns it; a full bucket is not slowed.
import { NotStartedError, WriteNotSentError } from './request-context.js';
import { markStarted, type RequestContext } from '../core/request-context.js';
import { Pace } from './request-pace.js';
import { PriorityQueue } from '../core/priority-queue.js';
import { retryAfterMs } from './retry-policy.js';
import type { AnswerHeaders } from './http-fetch.js';
import type { RequestPacing, RequestStats } from '../core/request-pacing.js';

export type RequestClass = 'reads' | 'writes' | 'deletes';
const REQUEST_CLASSES: readonly RequestClass[] = ['reads', 'writes', 'deletes'];

export interface SchedulerClock {
  now(): number;
  /** Calls `fn` once after `ms`; returns what cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

export interface SchedulerOptions {
  /** Requests in flight per service. */
  readonly concurrency: number;
  /** Test seam: a fake clock. */
  readonly clock?: SchedulerClock;
}

/** What the scheduler reads of an answer. */
export interface Answer {
  readonly status: number;
  readonly headers: AnswerHeaders;
}

/** A 429 without Retry-After pauses its bucket this long; a longer Retry-After is capped. */
const DEFAULT_PAUSE_MS = 1_000;
const MAX_PAUSE_MS = 60_000;

const realClock: SchedulerClock = {
  now: () => Date.now(),
  setTimer: (ms, fn) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

interface Entry {
  readonly seq: number;
  readonly priority: number;
  /** A later page of a listing already begun: it goes before new work of the same priority. */
  readonly continues: boolean;
  readonly ctx: RequestContext | undefined;
  readonly pace: Pace;
  /** What an interruption refuses if this entry is still waiting (undefined: it is sent anyway). */
  readonly refusal: () => Error | undefined;
  readonly start: () => void;
  readonly reject: (err: Error) => void;
  /** Stops listening for the step's interruption (once the request is sent). */
  forget?: () => void;
  done: boolean;
}

class Lane {
  pausedUntil = 0;
  readonly queues: Record<RequestClass, PriorityQueue<Entry>> = { reads: queue(), writes: queue(), deletes: queue() };
}

function queue(): PriorityQueue<Entry> {
  return new PriorityQueue<Entry>(before);
}

/**
 * Most urgent first; then a listing's next page before a new request, so listings end in the order
 * they began (under a rate limit each one's answers can be used early, not all at the end); then first come.
 */
function before(a: Entry, b: Entry): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (a.continues !== b.continues) return a.continues;
  return a.seq < b.seq;
}

class Gate {
  limit: number;
  inFlight = 0;
  /** Entries queued, not yet started or cancelled. */
  waiting = 0;
  readonly paces: Record<RequestClass, Pace> = { reads: new Pace(), writes: new Pace(), deletes: new Pace() };
  readonly lanes = new Map<string, Lane>();
  cancelTimer: (() => void) | undefined;
  timerAt = Infinity;

  constructor(public max: number) {
    this.limit = max;
  }

  lane(key: string): Lane {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = new Lane();
      this.lanes.set(key, lane);
    }
    return lane;
  }
}

export function requestClassOf(method: string): RequestClass {
  const m = method.toUpperCase();
  if (m === 'GET' || m === 'HEAD') return 'reads';
  return m === 'DELETE' ? 'deletes' : 'writes';
}

/** ARM throttles per subscription; the other services per caller, which is one bucket per run. */
export function bucketOf(service: string, url: URL): string {
  if (service !== 'arm') return service;
  const m = /^\/subscriptions\/([^/]+)/i.exec(url.pathname);
  return m ? `arm/${m[1].toLowerCase()}` : 'arm';
}

export class RequestScheduler implements RequestPacing {
  private readonly concurrency: number;
  private readonly clock: SchedulerClock;
  private readonly gates = new Map<string, Gate>();
  private readonly busy = new Set<RequestContext>();
  private readonly onAbort = new WeakMap<AbortSignal, Set<() => void>>();
  private seq = 0;
  private queued = 0;
  private answers = 0;
  private throttled = 0;

  constructor(options: SchedulerOptions) {
    this.concurrency = Math.max(1, options.concurrency);
    this.clock = options.clock ?? realClock;
  }

  /** Current limit on requests in flight of a service (AIMD moves it below the cap after 429s). */
  limitOf(service: string): number {
    return this.gates.get(service)?.limit ?? this.concurrency;
  }

  stats(): RequestStats {
    const now = this.clock.now();
    let inFlight = 0;
    let pause = 0;
    for (const gate of this.gates.values()) {
      inFlight += gate.inFlight;
      for (const lane of gate.lanes.values()) pause = Math.max(pause, lane.pausedUntil - now);
    }
    return { inFlight, queued: this.queued, busySteps: this.busy.size, throttledMs: pause, answers: this.answers, throttled: this.throttled };
  }

  /**
   * Sends a request when its service and bucket allow, most urgent first; `send` must resolve with
   * the answer (status and headers steer the pacing) or reject when no answer came. `continues`:
   * the request is a later page of a listing begun, sent before new requests of the same urgency.
   */
  async run<T extends Answer>(service: string, method: string, url: URL, send: () => Promise<T>, ctx?: RequestContext, continues = false): Promise<T> {
    const gate = this.gate(service);
    const lane = gate.lane(bucketOf(service, url));
    const cls = requestClassOf(method);
    const part = { pace: gate.paces[cls], queue: lane.queues[cls] };
    const refusal = () => refusalOnInterrupt(ctx, cls, method, url);
    if (ctx) ctx.sentChange ??= false; // known from now on: every request of the step passes here
    this.activate(ctx, 1);
    try {
      await this.admit(gate, part, ctx, refusal, continues);
      let answer: T | undefined;
      try {
        answer = await send();
        return answer;
      } finally {
        this.settle(gate, lane, part.pace, answer);
        if (ctx && cls !== 'reads' && !(answer && answer.status >= 400 && answer.status < 500)) ctx.sentChange = true;
      }
    } finally {
      this.activate(ctx, -1);
    }
  }

  private gate(service: string): Gate {
    let gate = this.gates.get(service);
    if (!gate) {
      gate = new Gate(this.concurrency);
      this.gates.set(service, gate);
    }
    return gate;
  }

  private activate(ctx: RequestContext | undefined, by: 1 | -1): void {
    if (!ctx) return;
    ctx.active += by;
    if (ctx.active > 0) this.busy.add(ctx);
    else this.busy.delete(ctx);
  }

  /**
   * Waits in the queue until dispatched. Once the step's run is interrupted, a step that has sent
   * nothing sends nothing, and a started step sends no further write (it may be waiting out a
   * throttling pause of a minute); a started step's reads still go, to record what its writes did.
   */
  private admit(
    gate: Gate,
    part: { pace: Pace; queue: PriorityQueue<Entry> },
    ctx: RequestContext | undefined,
    refusal: () => Error | undefined,
    continues: boolean,
  ): Promise<void> {
    const refused = ctx?.signal?.aborted ? refusal() : undefined;
    if (refused) return Promise.reject(refused);
    return new Promise<void>((resolve, reject) => {
      const entry: Entry = { seq: this.seq++, priority: ctx?.priority ?? 0, continues, ctx, pace: part.pace, refusal, done: false, start: resolve, reject };
      part.queue.push(entry);
      this.queued++;
      gate.waiting++;
      if (ctx?.signal) entry.forget = this.cancelOnAbort(ctx.signal, () => this.cancel(gate, entry));
      this.dispatch(gate);
    });
  }

  /** One listener per signal, however many requests wait on it (a run's steps share one). */
  private cancelOnAbort(signal: AbortSignal, cancel: () => void): () => void {
    let waiting = this.onAbort.get(signal);
    if (!waiting) {
      const set = new Set<() => void>();
      waiting = set;
      this.onAbort.set(signal, set);
      signal.addEventListener(
        'abort',
        () => {
          for (const c of set) c();
          set.clear();
        },
        { once: true },
      );
    }
    waiting.add(cancel);
    return () => waiting.delete(cancel);
  }

  private cancel(gate: Gate, entry: Entry): void {
    if (entry.done) return;
    const refused = entry.refusal();
    if (!refused) return;
    entry.done = true;
    this.queued--;
    gate.waiting--;
    entry.reject(refused);
    this.dispatch(gate);
  }

  private settle(gate: Gate, lane: Lane, pace: Pace, answer: Answer | undefined): void {
    const now = this.clock.now();
    gate.inFlight--;
    if (answer) {
      this.answers++;
      const throttled = answer.status === 429;
      if (throttled) {
        this.throttled++;
        const pause = Math.min(retryAfterMs(answer.headers) ?? DEFAULT_PAUSE_MS, MAX_PAUSE_MS);
        lane.pausedUntil = Math.max(lane.pausedUntil, now + pause);
        gate.limit = Math.max(1, gate.limit / 2);
      } else {
        gate.limit = Math.min(gate.max, gate.limit + 1 / gate.limit);
      }
      pace.answered(now, remainingOf(answer.headers), throttled);
    } else {
      pace.answered(now, undefined, false);
    }
    this.dispatch(gate);
  }

  /** Starts what may start now; wakes itself when a pause or a pacing interval ends. */
  private dispatch(gate: Gate): void {
    const now = this.clock.now();
    let wake = Infinity;
    while (gate.inFlight < Math.max(1, Math.floor(gate.limit))) {
      const picked = this.pick(gate, now);
      wake = picked.wake;
      if (!picked.entry) break;
      picked.entry.done = true;
      this.queued--;
      gate.waiting--;
      gate.inFlight++;
      picked.entry.pace.started(now);
      picked.entry.forget?.();
      if (picked.entry.ctx) markStarted(picked.entry.ctx);
      picked.entry.start();
    }
    this.wakeAt(gate, wake, now);
  }

  /** The most urgent entry allowed to start now, and the earliest time a held one may. */
  private pick(gate: Gate, now: number): { entry?: Entry; wake: number } {
    let best: { entry: Entry; queue: PriorityQueue<Entry> } | undefined;
    let wake = Infinity;
    // A class its pace holds back starts nowhere now: its queues are not looked at (a run waiting
    // on a rate limit dispatches often, and ARM has a lane per subscription: thousands of queues).
    const open = REQUEST_CLASSES.filter((cls) => gate.paces[cls].allows(now));
    for (const cls of REQUEST_CLASSES) if (!open.includes(cls)) wake = Math.min(wake, gate.paces[cls].nextAt);
    if (open.length === 0) return { wake };
    for (const lane of gate.lanes.values()) {
      for (const cls of open) {
        const queue = lane.queues[cls];
        while (queue.peek()?.done) queue.pop();
        const head = queue.peek();
        if (!head) continue;
        if (lane.pausedUntil > now) {
          wake = Math.min(wake, lane.pausedUntil);
          continue;
        }
        if (!best || before(head, best.entry)) best = { entry: head, queue };
      }
    }
    if (best) best.queue.pop();
    return { entry: best?.entry, wake };
  }

  private wakeAt(gate: Gate, at: number, now: number): void {
    if (gate.waiting === 0 && gate.cancelTimer) {
      // Nothing waits: a pending wake-up would only keep the process alive.
      gate.cancelTimer();
      gate.cancelTimer = undefined;
      gate.timerAt = Infinity;
    }
    if (at === Infinity || at >= gate.timerAt) return;
    gate.cancelTimer?.();
    gate.timerAt = at;
    gate.cancelTimer = this.clock.setTimer(Math.max(0, at - now), () => {
      gate.timerAt = Infinity;
      gate.cancelTimer = undefined;
      this.dispatch(gate);
    });
  }
}

/** What an interrupted run refuses to send for a step; undefined: a started step's read, which goes. */
function refusalOnInterrupt(ctx: RequestContext | undefined, cls: RequestClass, method: string, url: URL): Error | undefined {
  if (!ctx?.started) return new NotStartedError();
  return cls === 'reads' ? undefined : new WriteNotSentError(method.toUpperCase(), url.pathname);
}

/** The lowest x-ms-ratelimit-remaining-* value of an answer. */
function remainingOf(headers: AnswerHeaders): number | undefined {
  let low: number | undefined;
  headers.forEach((value, name) => {
    if (!name.startsWith('x-ms-ratelimit-remaining-')) return;
    const n = Number(value);
    if (Number.isFinite(n)) low = low === undefined ? n : Math.min(low, n);
  });
  return low;
}
