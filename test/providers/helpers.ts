// Test helpers: a transport/providers set against fake https endpoints, with recorded waits and no real sleeping.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { setupServer, type SetupServer } from 'msw/node';
import { createProviders, type Providers, type ProviderOptions } from '../../src/providers/providers.js';
import type { MoorEvent } from '../../src/core/events.js';

export const TOKEN = 'secret-token-abc123';

export const ENDPOINTS = {
  arm: 'https://arm.test',
  graph: 'https://graph.test',
  analytics: 'https://analytics.test',
  fabric: 'https://fabric.test',
  lcs: 'https://lcs.test',
  connector: 'https://connector.test/',
} as const;

export interface Harness {
  readonly providers: Providers;
  readonly sleeps: number[];
  readonly events: MoorEvent[];
}

/** Providers whose waits are recorded instead of slept, with jitter fixed at the maximum. */
export function harness(extra: Partial<ProviderOptions> = {}): Harness {
  const sleeps: number[] = [];
  const events: MoorEvent[] = [];
  const providers = createProviders({
    endpoints: ENDPOINTS,
    defaultToken: TOKEN,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 1,
    events: (e) => events.push(e),
    ...extra,
  });
  return { providers, sleeps, events };
}

/** Runs a promise expected to reject and returns the error. */
export async function failure(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (err) {
    return err as Error & Record<string, unknown>;
  }
  throw new Error('expected a failure');
}

/** An msw server for one test file: listening for its tests, refusing unhandled requests, reset after each. */
export function mswServer(): SetupServer {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}
