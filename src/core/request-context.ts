// Which step a request belongs to: its priority in the request queues, and whether it may still
// start. Apply carries it in the step's KindContext and hands the kind clients that attribute every
// request to it (ServiceClients.forRequests); no async-local storage, whose promise hooks would slow
// every await of a large apply.

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
