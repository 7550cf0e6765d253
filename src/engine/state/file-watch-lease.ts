// The watch lease of a state file: a lock file of its own beside the state, held for the whole watch.
// A file is no place for replicas to take turns (no heartbeat another host could see), so one watch
// runs per state file and a second one is refused, naming the first.
import { UserError } from '../../core/diagnostics.js';
import { describeLock } from './describe-lock.js';
import { acquireFileLock, readLock, releaseFileLock } from './file-lock.js';
import type { StateLease } from './types.js';

/** Takes the watch lock beside `statePath` (named `location` in messages); a dead holder's (kill -9, crash on this host) is taken over. */
export async function takeFileWatchLease(statePath: string, location: string, operation: string): Promise<StateLease> {
  const path = `${statePath}.watch`;
  let info;
  try {
    info = await acquireFileLock(path, operation, 0);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    const holder = await readLock(path);
    const who = typeof holder === 'object' ? describeLock(holder) : `an unreadable lock file ${path}`;
    throw new UserError(
      `another moor watch already watches the state ${location} (${who}): with a file state one watch runs at a time. ` +
        `Stop that one, or keep state in PostgreSQL (--state postgres://…) to run several watch replicas that share the stacks`,
    );
  }
  let released = false;
  return {
    held: async () => {
      if (released) return false;
      const now = await readLock(path);
      return typeof now === 'object' && now.id === info.id;
    },
    release: async () => {
      if (released) return;
      released = true;
      await releaseFileLock(path, info);
    },
  };
}
