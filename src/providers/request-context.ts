// Which step a request belongs to: its priority in the request queues, and whether it may still
// start. The applier hands each step clients bound to its context (providersFor); no async-local
// storage, whose promise hooks would slow every await of a large apply.
import { UserError } from '../core/diagnostics.js';
import { interruption } from '../core/interrupted.js';

/** One step's requests, as the request scheduler sees them. */
export interface RequestContext {
  /** Higher first: the step's remaining chain of dependents (critical path first). */
  readonly priority: number;
  /** Once aborted, a step that has sent nothing yet sends nothing (it has not started). */
  readonly signal?: AbortSignal;
  /** Set when the step's first request is sent: from then on it runs to its end. */
  started: boolean;
  /**
   * Set once the step sent a change (a write or delete the service did not refuse with a 4xx): an
   * interrupted step that sent none (only reads, or a refused write) leaves nothing going on at the service.
   */
  sentChange?: boolean;
  /** Requests of the step queued or in flight now (0: the step waits on the service or on a timer). */
  active: number;
  /** Called once, when the step starts. */
  readonly onStart?: () => void;
  /** The step's address: the transport's retry, throttle and poll events carry it, so a display can show them on the step's line. */
  readonly address?: string;
}

export function newRequestContext(priority: number, signal?: AbortSignal, onStart?: () => void, address?: string): RequestContext {
  return { priority, signal, started: false, active: 0, onStart, address };
}

/** The step starts: its first request is being sent (or it finished without sending any). */
export function markStarted(ctx: RequestContext): void {
  if (ctx.started) return;
  ctx.started = true;
  ctx.onStart?.();
}

/** The error of a request refused because its step was interrupted before it sent anything. */
export class NotStartedError extends Error {
  constructor() {
    super('interrupted before the first request was sent');
    this.name = 'NotStartedError';
  }
}

/**
 * A write of a step that had already started, still waiting for its turn (a throttling pause, the
 * service's pacing) when the run was interrupted: it is not sent. Its step ends interrupted; what
 * it sent before goes on at the service, and the next plan reads where it got to.
 */
export class WriteNotSentError extends UserError {
  constructor(method: string, path: string) {
    super(`${method} ${path}: interrupted while waiting for its turn under the service's rate limit; it was not sent, and the next plan reads where things got to`);
    this.name = 'WriteNotSentError';
    interruption(this);
  }
}

/**
 * A wait between polls of an operation ended by the interruption: the operation was sent and
 * goes on at the service; the next plan reads where it got to (a user failure, not a bug).
 */
export class InterruptedWaitError extends UserError {
  constructor(label: string) {
    super(`${label}: interrupted while waiting for the operation to finish; it goes on at the service, and the next plan reads where it got to`);
    this.name = 'InterruptedWaitError';
    interruption(this);
  }
}
