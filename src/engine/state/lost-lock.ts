// The error of a run that lost its state lock (unlocked by force, taken over): it stops writing, to services and to state.
import { UserError } from '../../core/diagnostics.js';

/** `detail` says what happened: 'taken over by alice@host (pid 1, moor apply) since …', 'the lock file was removed …'. */
export function lostLockError(detail: string, location: string): UserError {
  return new UserError(
    `lost the state lock (${detail}): this run sends no more requests and records nothing more in ${location}; ` + `run 'moor plan' to see where things stand`,
  );
}
