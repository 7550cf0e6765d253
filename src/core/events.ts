// One typed event stream: what the engine and providers tell whoever watches a run (the listr2 UI,
// plain lines, `--output jsonl`, tests). Everything goes through one sink; the engine never prints.
import type { ServiceName } from './services.js';

/** interrupted: the step had sent its operation and its wait ended on Ctrl-C (the abort signal); the operation goes on at the service. */
export type StepStatus = 'done' | 'failed' | 'interrupted' | 'skipped';

/** How a step of apply ended. */
export interface StepOutcome {
  readonly address: string;
  readonly action: string;
  readonly status: StepStatus;
  /** failed: the error message (service code and request id included); interrupted: what was cut short. */
  readonly error?: string;
  /** skipped: the failed dependency that caused it (the root cause). */
  readonly rootCause?: string;
  /** interrupted: it had sent no change (only reads, or writes the service refused), so nothing of it goes on at the service. */
  readonly sentNoChange?: boolean;
  /** done, but what depends on it must not run (a job whose run of this revision failed). */
  readonly blocks?: string;
  /** A no-op that followed an earlier write the service still carried out (PlannedChange.inProgress): it ends as that write did, so it counts as a change. */
  readonly followsEarlierWrite?: boolean;
  /** failed without being tried: the plan refused it (a policy, a saved plan that no longer holds); reports count it as refused, not failed. */
  readonly refused?: boolean;
}

/**
 * Whether a failed, interrupted or skipped outcome counts in the reports' "N failed" (and the
 * like): a no-op sent nothing (a job of unknown outcome is a root cause, not a failure), unless it
 * followed an earlier write, whose failure it reports.
 */
export function countsAsChange(o: StepOutcome): boolean {
  return o.action !== 'no-op' || o.followsEarlierWrite === true;
}

/** A wait of the transport: before another attempt (retried, throttled by a 429) or between polls of an operation. */
export interface WaitEvent {
  readonly service: ServiceName;
  readonly method: string;
  /** URL path without the query string. */
  readonly path: string;
  readonly label: string;
  /** The status of the answer that caused the wait; absent when no answer came (no connection) or for a poll. */
  readonly status?: number;
  readonly attempt?: number;
  readonly delayMs: number;
  /** The step the request belongs to (its RequestContext), when it belongs to one (apply's steps; not plan's reads). */
  readonly address?: string;
}

/** An answer the transport got (any status, before it decides to retry): for tests and debugging; the CLI's sinks show nothing of it. */
export interface AnswerEvent {
  readonly service: ServiceName;
  readonly method: string;
  /** URL path without the query string. */
  readonly path: string;
  readonly label: string;
  readonly status: number;
  readonly attempt: number;
  readonly address?: string;
}

export type MoorEvent =
  /** The planner decided a change (no-ops and checks included); a later one of the same address supersedes it (--replace). moor watch counts them (moor_planned_changes_total). */
  | { readonly type: 'planned'; readonly address: string; readonly action: string }
  | { readonly type: 'step_started'; readonly address: string; readonly action: string }
  /** A kind's progress line (KindContext.log), during plan or apply; never secrets. */
  | { readonly type: 'progress'; readonly address: string; readonly message: string }
  | { readonly type: 'step_finished'; readonly outcome: StepOutcome }
  | ({ readonly type: 'request_retried' } & WaitEvent)
  | ({ readonly type: 'throttled' } & WaitEvent)
  | ({ readonly type: 'poll_wait' } & WaitEvent)
  | ({ readonly type: 'request_answered' } & AnswerEvent)
  /** A stale lock of a process no longer running was taken over; `holder` describes it. */
  | { readonly type: 'lock_taken_over'; readonly holder: string }
  /** A line for humans that belongs to no step (the local cloud in use, a long wait: `wait` says of what kind); `level: 'warn'` for a warning. */
  | { readonly type: 'notice'; readonly message: string; readonly wait?: 'retry' | 'poll'; readonly level?: 'warn' };

export type EventSink = (event: MoorEvent) => void;

export type MoorEventOf<T extends MoorEvent['type']> = Extract<MoorEvent, { type: T }>;

/** Sends each event to every sink given (undefined ones skipped). */
export function fanOut(...sinks: readonly (EventSink | undefined)[]): EventSink {
  const present = sinks.filter((s): s is EventSink => s !== undefined);
  return (e) => {
    for (const s of present) s(e);
  };
}

/** Keeps the events of the given types; drops the rest. */
export function only(types: readonly MoorEvent['type'][], sink: EventSink): EventSink {
  const wanted = new Set<string>(types);
  return (e) => {
    if (wanted.has(e.type)) sink(e);
  };
}

/** The one line a human sees on stderr for an event outside any step, or undefined when it has none. */
export function noticeLine(e: MoorEvent): string | undefined {
  if (e.type === 'notice') return e.message;
  if (e.type === 'lock_taken_over') return `moor: took over a stale state lock of ${e.holder} (that process is no longer running)`;
  return undefined;
}

/** A sink writing notice lines through `write` (stderr in the CLI), `except` those of a kind of long wait another sink shows; other events are not its business. */
export function noticeSink(write: (line: string) => void, options: { readonly except?: 'retry' | 'poll' } = {}): EventSink {
  return (e) => {
    if (e.type === 'notice' && options.except !== undefined && e.wait === options.except) return;
    const line = noticeLine(e);
    if (line !== undefined) write(line);
  };
}

/** A sink that keeps every event, for tests. */
export function recordingSink(): { readonly sink: EventSink; readonly events: MoorEvent[] } {
  const events: MoorEvent[] = [];
  return { sink: (e) => events.push(e), events };
}
