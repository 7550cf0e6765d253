// An endpoint nothing listens at fails at once, in one message naming the service and its address:
// connection refused on this machine is not worth eight attempts.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { MoorEvent } from '../../src/core/events.js';
import { Transport } from '../../src/providers/transport.js';
import { ServiceError } from '../../src/providers/service-error.js';

/** A loopback port that was free a moment ago and has nothing listening now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((res) => server.close(() => res()));
  return port;
}

describe('an unreachable endpoint', () => {
  it('connection refused on loopback: one attempt, no retry, the service and URL named', async () => {
    const port = await closedPort();
    const events: MoorEvent[] = [];
    const sleeps: number[] = [];
    const transport = new Transport({
      service: 'arm',
      baseUrl: new URL(`http://127.0.0.1:${port}`),
      token: async () => 'a-token-long-enough',
      events: (e) => events.push(e),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const err = await transport.request({ method: 'GET', path: '/subscriptions', label: 'subscriptions' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as Error).message).toBe(`GET subscriptions: no answer: cannot reach service 'arm' at http://127.0.0.1:${port} (connection refused)`);
    expect(events.filter((e) => e.type === 'request_retried' || e.type === 'throttled')).toEqual([]);
    expect(sleeps).toEqual([]);
  });
});
