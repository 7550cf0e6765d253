// Operations hold the state lock around their reads and writes; the lock is released whatever happens.
import type { Session } from '../session.js';

/** How an operation takes the lock: `timeoutMs` waits for another run's (0: fail at once). */
export interface LockRequest {
  readonly timeoutMs: number;
  /** false: plan reads state without the lock (plan --lock=false), and says what that risks. */
  readonly take?: boolean;
  /** Who holds it, as another run's refusal names it (default: the operation, `moor plan` or `moor apply`). */
  readonly holder?: string;
}

export async function underStateLock<T>(session: Session, operation: string, lock: LockRequest, body: () => Promise<T>): Promise<T> {
  if (lock.take === false) {
    session.events({
      type: 'notice',
      level: 'warn',
      message:
        operation === 'moor drift'
          ? 'moor: warning: checking drift without the state lock (--lock=false); a run changing state meanwhile makes this report stale'
          : 'moor: warning: planning without the state lock (--lock=false); a run changing state meanwhile makes this plan stale',
    });
    return body();
  }
  const held = await session.backend.lock(lock.holder ?? operation, lock.timeoutMs);
  try {
    return await body();
  } finally {
    await session.backend.unlock(held);
  }
}
