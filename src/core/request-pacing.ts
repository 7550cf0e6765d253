// What a run sees of its request pacing (the providers' request scheduler), so the engine can show
// the traffic without knowing who paces the requests.

export interface RequestStats {
  readonly inFlight: number;
  readonly queued: number;
  /** Steps with a request queued or in flight (the others wait on the service or a timer). */
  readonly busySteps: number;
  /** How long the longest throttling pause still lasts, in ms (0: not throttled). */
  readonly throttledMs: number;
  /** Answers received, and how many of them were 429. */
  readonly answers: number;
  readonly throttled: number;
}

export interface RequestPacing {
  stats(): RequestStats;
}
