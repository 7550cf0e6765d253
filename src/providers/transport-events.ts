// The transport's waits as events of the one stream: a retry, a throttle (a 429), a poll wait.
import type { MoorEvent } from '../core/events.js';
import type { TransportEvent } from './transport.js';

/** The typed event for a transport event; undefined for a plain answer (a request that needs no wait). */
export function transportMoorEvent(e: TransportEvent): MoorEvent | undefined {
  if (e.type === 'request') return undefined;
  const wait = {
    service: e.service, method: e.method, path: e.path, label: e.label ?? e.path, delayMs: e.delayMs ?? 0,
    ...(e.status !== undefined ? { status: e.status } : {}), ...(e.attempt !== undefined ? { attempt: e.attempt } : {}),
  };
  if (e.type === 'poll') return { type: 'poll_wait', ...wait };
  return { type: e.status === 429 ? 'throttled' : 'request_retried', ...wait };
}
