// What an operation needs of whoever runs it (the CLI's io host, moor watch, a program using moor as
// a library, a test): the folder and environment, the one conversation every message of the
// operation goes through (conversation.ts), a person's confirmation, and the signals that stop it.
import type { EventSink } from '../../core/events.js';
import type { Session } from '../session.js';
import type { PlanMadeFrom, RunSink } from './run-events.js';
import type { PreparedPlan } from '../workflow.js';
import { isResultEvent, type IoMessage } from './io-message.js';

/** 'interrupted': Ctrl-C at the question; 'closed': Ctrl-D or end of input. */
export type Confirmation = 'yes' | 'no' | 'interrupted' | 'closed';

/** The signals that stop a run: Ctrl-C, a kill, a closed terminal. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

export interface OperationHost {
  /** The folder relative paths (manifests, a saved plan) are read from. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Every message of the operation, while it runs: its results, the engine's progress and notices,
   * the transport's waits, a stale lock taken over, and `run_failed` when it ends on a user's error.
   * A result is awaited: a display may finish drawing first.
   */
  notify(message: IoMessage): void | Promise<void>;
  /** The clock of the messages' times; the system's when absent. */
  now?(): Date;
  /** Asks whether to apply the plan shown; only asked when the request does not approve itself. */
  confirm?(): Promise<Confirmation>;
  /** Calls `listener` on each of `signals` until the returned function is called. */
  onSignals?(signals: readonly StopSignal[], listener: (signal: StopSignal) => void): () => void;
}

/**
 * A host's `notify` for a caller that listens to events, not messages (the CLI's reporters, moor
 * watch): what happens goes to `events`, the results to `results` (both the same sink, often).
 */
export function eventsNotify(events: EventSink | undefined, results: RunSink): OperationHost['notify'] {
  return (message) => (isResultEvent(message.data) ? results(message.data) : events?.(message.data as Parameters<EventSink>[0]));
}

/** The line (on stderr) and exit code of an apply that was not approved. */
export function notApproved(answer: Exclude<Confirmation, 'yes'>): { line: string; code: number } {
  if (answer === 'interrupted') return { line: '\nApply cancelled (interrupted); nothing was changed.', code: 130 };
  if (answer === 'closed') return { line: '\nApply cancelled: no answer (end of input); nothing was changed.', code: 1 };
  return { line: 'Apply cancelled; nothing was changed.', code: 1 };
}

/** What plan_ready tells of a prepared plan's making (references, no copies). */
export function madeFrom(prepared: Pick<PreparedPlan, 'graph' | 'state'>): PlanMadeFrom {
  return { graph: prepared.graph, state: prepared.state };
}

/** The stack a result names (`{}` without one), as the session selected it. */
export function stackOf(session: Session): { stack?: string } {
  const name = session.config.stack?.name;
  return name === undefined ? {} : { stack: name };
}
