// moor watch replicas: each replica's id among those sharing the stacks. It must be stable across restarts
// (a replica that comes back with its id takes its share again, the stacks it ranks highest, rather than
// reshuffling) and unique among the running replicas (a second process with the same id waits for the
// first to go, then is refused).
import { hostname } from 'node:os';
import { UserError } from '../core/diagnostics.js';
import type { ReplicaCard } from '../engine/state/types.js';
import type { ListenAddress } from './listen-address.js';

const MAX_ID = 200;
/** Letters, digits and . _ : @ / - : an id shows in logs, User-Agent headers and the dashboard as it is. */
const ID = /^[\w.:@/-]+$/;

/**
 * This replica: `given` (--replica-id, MOOR_REPLICA_ID) or, by default, the host name (a pod's name in a
 * StatefulSet, stable across restarts) with the --listen port when a fixed one is given (replicas on one
 * host listen on ports of their own). A replica that listens on a port picked at start (0) adds its pid,
 * so it gets a new id each time it starts.
 */
export function replicaCard(given: string | undefined, listen: ListenAddress | undefined, flag: string): ReplicaCard {
  const host = hostname();
  const listenText = listen && listen.port !== 0 ? `${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port}` : undefined;
  if (given !== undefined) {
    const id = given.trim();
    if (id.length === 0 || id.length > MAX_ID || !ID.test(id)) {
      throw new UserError(`${flag} must be 1 to ${MAX_ID} letters, digits and . _ : @ / - (e.g. watch-0 or the pod's name), not '${given}'`);
    }
    return { id, host, pid: process.pid, ...(listenText ? { listen: listenText } : {}) };
  }
  const id = listen === undefined ? host : listen.port === 0 ? `${host}:pid-${process.pid}` : `${host}:${listen.port}`;
  return { id, host, pid: process.pid, ...(listenText ? { listen: listenText } : {}) };
}
