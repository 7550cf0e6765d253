// How messages name a lock holder, for every backend: 'alice@host (pid 1234, moor apply) since …'.
import type { LockInfo } from './types.js';

export function describeLock(l: LockInfo): string {
  // Callers name operations either way ('apply' or 'moor apply'): print 'moor' once.
  const op = l.operation.startsWith('moor ') ? l.operation : `moor ${l.operation}`;
  return `${l.who} (pid ${l.pid}, ${op}) since ${l.since}`;
}
