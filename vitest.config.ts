import { configDefaults, defineConfig } from 'vitest/config';

/** Tests that need a PostgreSQL server; their project's global setup starts one when none is given. */
const POSTGRES_TESTS = ['test/**/postgres-*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two projects so that a run without PostgreSQL tests does not start a server.
    projects: [
      {
        extends: true,
        test: { name: 'main', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...POSTGRES_TESTS] },
      },
      {
        extends: true,
        test: { name: 'postgres', include: POSTGRES_TESTS, globalSetup: ['test/global-setup-postgres.ts'] },
      },
    ],
  },
});
