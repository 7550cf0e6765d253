// One message of an operation's conversation with its host, as the CDK toolkit's IoMessage: when it
// was said, how loud (error, result, warn, info, debug, trace), a stable code callers tell messages
// apart by (never the text), and the data itself: the event as the engine or a provider sent it.
import type { RunEvent } from './run-events.js';

/** result: what the operation came to (a plan, the outcomes); error: the run failed; the rest as in any log. */
export type IoLevel = 'error' | 'result' | 'warn' | 'info' | 'debug' | 'trace';

export interface IoMessage<E extends RunEvent = RunEvent> {
  readonly time: Date;
  readonly level: IoLevel;
  /** The event's type (`plan_ready`, `notice`, `run_failed`…): what a caller switches on. */
  readonly code: E['type'];
  readonly data: E;
}

/** The types of the events that are an operation's results, not what happens on the way. */
const RESULT_CODES: ReadonlySet<RunEvent['type']> = new Set(['plan_ready', 'apply_started', 'apply_done', 'stacks_ready', 'run_failed']);

/** Whether an event is one of an operation's results (plan_ready, apply_started, apply_done, stacks_ready, run_failed). */
export function isResultEvent(event: RunEvent): boolean {
  return RESULT_CODES.has(event.type);
}

/** The message carrying `event`, said at `time`. */
export function ioMessage<E extends RunEvent>(event: E, time: Date): IoMessage<E> {
  return { time, level: levelOf(event), code: event.type, data: event };
}

function levelOf(event: RunEvent): IoLevel {
  switch (event.type) {
    case 'run_failed':
      return 'error';
    case 'plan_ready':
    case 'apply_done':
    case 'stacks_ready':
      return 'result';
    case 'lock_taken_over':
      return 'warn';
    case 'notice':
      return event.level ?? 'info';
    case 'step_finished':
      return event.outcome.status === 'failed' ? 'error' : 'info';
    case 'apply_started':
    case 'step_started':
    case 'progress':
    case 'request_retried':
    case 'throttled':
    case 'poll_wait':
      return 'info';
    case 'planned':
      return 'debug';
    case 'request_answered':
      return 'trace';
  }
}
