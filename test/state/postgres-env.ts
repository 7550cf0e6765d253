// Test helper: the PostgreSQL server of the state tests (MOOR_TEST_POSTGRES), fresh workspaces, and the rule
// that CI never skips these tests silently.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, it } from 'vitest';
import { PostgresStateBackend } from '../../src/engine/state/postgres-backend.js';

/** postgres://USER:PASSWORD@HOST:PORT/DB of a server the tests may create tables in; .ci/run starts one. */
export const PG_URL = process.env.MOOR_TEST_POSTGRES?.trim() || undefined;

/** The password in PG_URL (decoded), which no message may ever contain. */
export const PG_PASSWORD = PG_URL ? decodeURIComponent(new URL(PG_URL).password) : '';

/** A URL of PG_URL's database with a workspace of its own, so tests running at once never meet. */
export function workspaceUrl(label: string): string {
  const url = new URL(PG_URL!);
  url.searchParams.set('workspace', `test-${label}-${randomUUID()}`);
  return url.href;
}

/**
 * describe() when a server is configured. Without one: in CI (CI set) a failing test, so a
 * pipeline cannot pass without running these; elsewhere the suite is skipped and says why.
 */
export function describeWithPostgres(name: string, body: () => void): void {
  if (PG_URL) {
    describe(name, body);
  } else if (process.env.CI) {
    describe(name, () => {
      it('has a PostgreSQL server to test against (MOOR_TEST_POSTGRES)', () => {
        throw new Error('MOOR_TEST_POSTGRES is not set, and CI is: the PostgreSQL state tests must run in CI. .ci/run starts a server and sets it.');
      });
    });
  } else {
    describe.skip(`${name} [skipped: set MOOR_TEST_POSTGRES=postgres://USER:PASSWORD@HOST:PORT/DB to run; .ci/run shows how to start a server]`, body);
  }
}

/** Opens backends for a test file and closes every one after each test. */
export function backendsClosedAfterEach(): (url: string) => PostgresStateBackend {
  const opened: PostgresStateBackend[] = [];
  afterEach(async () => { await Promise.all(opened.splice(0).map((b) => b.close())); });
  return (url) => {
    const b = new PostgresStateBackend(url);
    opened.push(b);
    return b;
  };
}
