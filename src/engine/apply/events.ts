// What apply tells its listeners (the listr2 UI, plain CI lines, tests); the engine never prints.
export type StepStatus = 'done' | 'failed' | 'skipped';

export interface StepOutcome {
  readonly address: string;
  readonly action: string;
  readonly status: StepStatus;
  /** failed: the error message (service code and request id included). */
  readonly error?: string;
  /** skipped: the failed dependency that caused it (the root cause). */
  readonly rootCause?: string;
  /** done, but what depends on it must not run (a job whose run of this revision failed). */
  readonly blocks?: string;
}

export interface ApplyListener {
  started?(address: string, action: string): void;
  progress?(address: string, message: string): void;
  finished?(outcome: StepOutcome): void;
}
