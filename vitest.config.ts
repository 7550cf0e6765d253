import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/** Tests that need a PostgreSQL server; their project's global setup starts one when none is given. */
const POSTGRES_TESTS = ['test/**/postgres-*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test files drive the CLI and a local cloud in child processes and spend half their time
    // waiting on them (provisioning, polls, Retry-After): one worker more than the cores keeps the
    // CPUs busy (vitest's default, cores - 1, ran one file at a time on a 2-core machine).
    maxWorkers: availableParallelism() + 1,
    // Two projects so that a run without PostgreSQL tests does not start a server.
    projects: [
      {
        extends: true,
        test: { name: 'main', globalSetup: ['test/global-setup-build.ts'], include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...POSTGRES_TESTS] },
      },
      {
        extends: true,
        test: { name: 'postgres', include: POSTGRES_TESTS, globalSetup: ['test/global-setup-build.ts', 'test/global-setup-postgres.ts'] },
      },
    ],
  },
});
