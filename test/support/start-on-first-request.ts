// What a vitest global setup serves its workers on demand (the run's browser, its PostgreSQL): a loopback
// URL that starts the thing on its first request and answers each request with how to reach it (or, with
// a 500, why it did not start), so a run whose files never ask starts nothing.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StartedOnRequest<T> {
  /** The URL to ask; workers forked after the global setup inherit it through the environment. */
  readonly url: string;
  /** Stops serving; resolves with the thing when it was started, for the caller to stop. */
  readonly close: () => Promise<T | undefined>;
}

export async function startOnFirstRequest<T>(start: () => Promise<T>, reachedBy: (started: T) => string): Promise<StartedOnRequest<T>> {
  let started: Promise<T> | undefined;
  const http = createServer((_req, res) => {
    started ??= start();
    started.then(
      (thing) => res.end(reachedBy(thing)),
      (err: unknown) => {
        res.statusCode = 500;
        res.end(err instanceof Error ? err.message : String(err));
      },
    );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/`,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      return started?.catch(() => undefined);
    },
  };
}
