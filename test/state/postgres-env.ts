// Test helper: the PostgreSQL server of the state tests (MOOR_TEST_POSTGRES), fresh workspaces, and the rule
// that no run skips these tests silently.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, it } from 'vitest';
import { PostgresStateBackend } from '../../src/engine/state/postgres-backend.js';

/**
 * The URL of the run's throwaway server, which the global setup (test/global-setup-postgres.ts) starts
 * when a file first asks; undefined when there is no such setup (a run with another config).
 */
async function runServerUrl(): Promise<string | undefined> {
  const starter = process.env.MOOR_TEST_POSTGRES_STARTER;
  if (!starter) return undefined;
  const res = await fetch(starter);
  if (!res.ok) throw new Error(`the run's PostgreSQL did not start: ${await res.text()}`);
  return res.text();
}

/** postgres://USER:PASSWORD@HOST:PORT/DB of a server the tests may create tables in: MOOR_TEST_POSTGRES, else the run's. */
export const PG_URL = process.env.MOOR_TEST_POSTGRES?.trim() || (await runServerUrl());

/** The password in PG_URL (decoded), which no message may ever contain. */
export const PG_PASSWORD = PG_URL ? decodeURIComponent(new URL(PG_URL).password) : '';

/** A URL of PG_URL's database with a workspace of its own, so tests running at once never meet. */
export function workspaceUrl(label: string): string {
  const url = new URL(PG_URL!);
  url.searchParams.set('workspace', `test-${label}-${randomUUID()}`);
  return url.href;
}

/**
 * A database of its own on PG_URL's server, for a test whose subject spans a whole database (the
 * watch replicas' fleet lists every replica of it): `drop` removes it again. The role needs CREATEDB
 * (the global setup's has it).
 */
export async function ownDatabase(label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `moor_${label}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  const drop = async () => {
    const again = new pg.Client({ connectionString: PG_URL });
    await again.connect();
    try {
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await again.end();
    }
  };
  return { url: url.href, drop };
}

/**
 * describe() when a server is configured. `npm test` always has one: unless MOOR_TEST_POSTGRES is
 * set, the global setup (test/global-setup-postgres.ts) serves an embedded server, started when a
 * file first imports this module. Without one the suite fails rather than skips, so no run passes
 * without these tests.
 */
export function describeWithPostgres(name: string, body: () => void): void {
  if (PG_URL) {
    describe(name, body);
  } else {
    describe(name, () => {
      it('has a PostgreSQL server to test against (MOOR_TEST_POSTGRES)', () => {
        throw new Error(
          'MOOR_TEST_POSTGRES is not set and this run serves no PostgreSQL: run with vitest.config.ts, whose global setup starts one (test/global-setup-postgres.ts), or set it to a server.',
        );
      });
    });
  }
}

/** Opens backends for a test file and closes every one after each test. */
export function backendsClosedAfterEach(): (url: string) => PostgresStateBackend {
  const opened: PostgresStateBackend[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((b) => b.close()));
  });
  return (url) => {
    const b = new PostgresStateBackend(url);
    opened.push(b);
    return b;
  };
}
