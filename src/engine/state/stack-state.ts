// The state of a stack: its own location (a file, or its workspace of a PostgreSQL database) and a
// guard that records the stack's name in the state and refuses a state that records another's.
import type { EventSink } from '../../core/events.js';
import type { SecretRegistry } from '../../core/masker.js';
import { UserError } from '../../core/diagnostics.js';
import type { MoorConfig } from '../config.js';
import { withStackWorkspace } from '../config-stacks.js';
import { openStateBackend } from './open-backend.js';
import type { StateBackend, StateChange, StateDocument, WholeDocument } from './types.js';

/** The key under state `extras` that names the stack the state belongs to. */
export const STACK_EXTRAS_KEY = 'stack';

/**
 * The backend of a run: `given` (--state, MOOR_STATE) or the config's state (already the stack's
 * own, see config.ts), guarded by the selected stack's name. A PostgreSQL URL given for a stack
 * without `?workspace=` uses the stack's name as its workspace.
 */
export function openStackState(given: string | undefined, config: MoorConfig, cwd: string, events?: EventSink, secrets?: SecretRegistry): StateBackend {
  const stack = config.stack?.name;
  const location = given ?? config.state;
  return guardStack(openStateBackend(stack && location ? withStackWorkspace(location, stack) : location, cwd, events, secrets), stack);
}

/** The stack a state document records, if any. */
export function recordedStack(doc: StateDocument): string | undefined {
  const value = doc.extras?.[STACK_EXTRAS_KEY];
  return typeof value === 'string' ? value : undefined;
}

/**
 * `inner` seen by a run of `stack` (undefined: no stack): reads refuse a state recording another
 * stack (a stack-less run refuses any stack's); writes record the stack's name with the first change.
 */
export function guardStack(inner: StateBackend, stack: string | undefined): StateBackend {
  let recorded = false;
  const check = (doc: StateDocument): StateDocument => {
    const owner = recordedStack(doc);
    if (owner !== undefined && owner !== stack) throw new UserError(foreignStateMessage(inner.location, owner, stack));
    recorded = owner !== undefined;
    return doc;
  };
  const stamp = (extras: StateDocument['extras']) => (stack === undefined ? extras : { ...(extras ?? {}), [STACK_EXTRAS_KEY]: stack });
  const guarded: StateBackend = {
    get location() {
      return inner.location;
    },
    read: async () => check(await inner.read()),
    write: async (next, options) => {
      const written = await inner.write({ ...next, ...(stack === undefined ? {} : { extras: stamp(next.extras) }) }, options);
      recorded = stack !== undefined;
      return written;
    },
    lock: (operation, waitMs) => inner.lock(operation, waitMs),
    unlock: (lock) => inner.unlock(lock),
    forceUnlock: (force) => inner.forceUnlock(force),
    close: () => inner.close(),
    ...(inner.assertLockHeld ? { assertLockHeld: inner.assertLockHeld.bind(inner) } : {}),
    ...(inner.takeLease ? { takeLease: inner.takeLease.bind(inner), replicas: inner.replicas } : {}),
    ...(inner.joinFleet ? { joinFleet: inner.joinFleet.bind(inner) } : {}),
    // The history is the stack's by where it is kept (beside the stack's own state).
    ...(inner.readHistory ? { readHistory: inner.readHistory.bind(inner) } : {}),
    ...(inner.appendHistory ? { appendHistory: inner.appendHistory.bind(inner) } : {}),
    // Other workspaces' records, as the ownership check reads them (no stack's state is read as this one's).
    ...(inner.recordedIdsIn ? { recordedIdsIn: inner.recordedIdsIn.bind(inner) } : {}),
  };
  if (!inner.appendChanges) return guarded;
  const append = inner.appendChanges.bind(inner);
  return {
    ...guarded,
    get location() {
      return inner.location;
    },
    appendChanges: async (changes: readonly StateChange[], whole?: () => WholeDocument) => {
      const first = stack !== undefined && !recorded;
      // The caller's whole document (written when the journal folds) carries the stack's name too.
      const stamped =
        whole &&
        (() => {
          const doc = whole();
          return stack === undefined ? doc : { ...doc, extras: stamp(doc.extras) };
        });
      const serial = await append(first ? [{ op: 'extras', key: STACK_EXTRAS_KEY, value: stack }, ...changes] : changes, stamped);
      if (first) recorded = true;
      return serial;
    },
  };
}

export function foreignStateMessage(location: string, owner: string, stack: string | undefined): string {
  if (stack === undefined) return `state ${location} belongs to stack ${owner}: give --stack ${owner} (or MOOR_STACK=${owner}) to use it`;
  return `state ${location} belongs to stack ${owner}, not ${stack}: refusing to use another stack's state (check --state and the stack's state: in moor.config.yaml)`;
}
