// A held state lock as a type, not a message: callers that tell it apart from other failures (moor
// watch skips the cycle, as controller-runtime tells a conflict by apierrors.IsConflict) ask
// isStateLocked, never the text. Every backend (file, PostgreSQL) throws it when another run holds the lock.
import { UserError } from '../../core/diagnostics.js';

export class StateLockedError extends UserError {
  /** A stable code for programs that see the error as data (a jsonl event, a library caller). */
  readonly code = 'state-locked';

  /** `holder`: who holds the lock, as the message names it. */
  constructor(
    message: string,
    readonly holder: string,
  ) {
    super(message);
    // Its name stays UserError's: to a person (and a child process's report) it is a user's error like any other.
  }
}

/** Whether an error says another run holds the state lock. */
export function isStateLocked(err: unknown): err is StateLockedError {
  return err instanceof StateLockedError;
}
