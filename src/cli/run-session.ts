// A run's session as every edge opens it (the moor command, a program using moor as a library): the
// built-in kinds and policies, and the built-in local cloud when no endpoint is configured.
import type { Session } from '../engine/session.js';
import type { SessionOptions } from '../session/open-session.js';

/** Opens a session with the built-in kinds, policies and local cloud; the rest as `options` say. */
export async function openRunSession(options: Omit<SessionOptions, 'kinds' | 'guard' | 'startLocalCloud'>): Promise<Session> {
  // Loaded here: --help, --version and validate never pay for the state backends and providers.
  const { openSession } = await import('../session/open-session.js');
  const { CATALOG } = await import('./catalog.js');
  const { lazyPolicyGuard } = await import('../policy/lazy-guard.js');
  return openSession({
    ...options,
    kinds: CATALOG,
    guard: lazyPolicyGuard,
    // Imported only when used, so a run against real services never loads the local cloud.
    startLocalCloud: async (cloud) => (await import('../localcloud/server.js')).startLocalCloud(cloud),
  });
}
