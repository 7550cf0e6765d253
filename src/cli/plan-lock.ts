// plan reads state under the state lock (so it never plans from a state an apply is changing);
// `--lock=false` plans read-only, without it, and says what that risks.
import type { Session } from '../engine/session.js';
import type { IoHost } from './io-host.js';

export async function underPlanLock<T>(io: IoHost, session: Session, flags: { lock: boolean; lockTimeout?: number }, read: () => Promise<T>): Promise<T> {
  if (!flags.lock) {
    io.stderr.write('moor: warning: planning without the state lock (--lock=false); a run changing state meanwhile makes this plan stale\n');
    return read();
  }
  const lock = await session.backend.lock('moor plan', (flags.lockTimeout ?? 0) * 1000);
  try {
    return await read();
  } finally {
    await session.backend.unlock(lock);
  }
}
