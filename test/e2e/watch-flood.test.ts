// moor watch under a flood of half-open connections with few file descriptors (ulimit -n 256): the
// listener's bounds keep the descriptors the cycles need, the watch reconciles again within two
// intervals after the flood, and never skips a cycle on a lock of its own.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cliEnv, groupManifest, moor, startCloud, workdir, type Cloud } from './harness.js';
import { BIN } from './processes.js';
import { startWatch, waitFor, type WatchStatus } from './watch-harness.js';

/**
 * The flood's watch (a process of its own: ulimit is the point) cycles every second: the bound it is held to,
 * two intervals and a second after the flood, shrinks with the interval, and under load a cycle's own work is
 * a good part of a shorter one.
 */
const INTERVAL_S = 1;
/** The readiness test's watch, whose locked cycles it waits for: near the product's floor (100ms). */
const CYCLE = '200ms';
const CONNECTIONS = 400;
const ROUNDS = 3;

/** Opens `count` connections that send half a request and never finish it; resolves once each is open or refused. */
async function halfOpen(port: number, count: number): Promise<Socket[]> {
  const sockets = Array.from({ length: count }, () => connect({ host: '127.0.0.1', port }));
  await Promise.all(
    sockets.map(
      (s) =>
        new Promise<void>((resolve) => {
          const done = () => resolve();
          s.once('connect', () => {
            s.write('GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n');
            done();
          });
          s.once('error', done);
          s.once('close', done);
          setTimeout(done, 10_000).unref();
        }),
    ),
  );
  return sockets;
}

describe('moor watch under a connection flood with ulimit -n 256', () => {
  let cloud: Cloud;
  let dir: string;

  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({ 'm/secret.txt': 'flood-secret-value\n', 'm/web.yaml': groupManifest('web') });
    expect((await moor(dir, cloud, ['apply', 'm', '--auto-approve'])).code).toBe(0);
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test(`after ${ROUNDS} rounds of ${CONNECTIONS} half-open connections it reconciles again within two intervals, never skipping on its own lock`, async () => {
    const child = spawn(
      '/bin/sh',
      ['-c', 'ulimit -n 256 && exec "$0" "$@"', process.execPath, BIN, 'watch', 'm', '--interval', `${INTERVAL_S}s`, '--self-heal', '--listen', '127.0.0.1:0'],
      {
        cwd: dir,
        env: cliEnv(cloud),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise<void>((r) => child.on('close', () => r()));
    try {
      const url = await waitFor(
        async () => /serving \S+ \S+ \S+ \S+ on (http:\/\/\S+)/.exec(stderr)?.[1],
        30_000,
        () => `watch did not serve: ${stderr}`,
      );
      const port = Number(new URL(url).port);
      const status = async () => JSON.parse(await (await fetch(url + '/api/status')).text()) as WatchStatus & { stacks: { lastRunAt: string | null }[] };
      await waitFor(
        async () => (await status()).stacks[0].runs >= 1,
        30_000,
        () => `no first cycle: ${stderr}`,
      );

      for (let round = 0; round < ROUNDS; round++) {
        const sockets = await halfOpen(port, CONNECTIONS);
        // The flood lasts a cycle of the watch: the cycle runs with the listener saturated.
        const before = (await status().catch(() => undefined))?.stacks[0].runs ?? 0;
        await waitFor(
          async () => (await status()).stacks[0].runs > before,
          30_000,
          () => `no cycle during round ${round + 1}: ${stderr}`,
        ).catch(() => undefined);
        sockets.forEach((s) => s.destroy());
      }

      const floodEnded = Date.now();
      // A cycle that started after the flood ended, and found the stack in sync.
      const after = await waitFor(
        async () => {
          const s = (await status()).stacks[0];
          return s.lastRunAt && Date.parse(s.lastRunAt) > floodEnded && s.result === 'in_sync' ? s : undefined;
        },
        60_000,
        () => `no cycle in sync after the flood: ${stderr}`,
      );
      expect(Date.parse(after.lastRunAt!) - floodEnded).toBeLessThan(2 * INTERVAL_S * 1000 + 1000);
      expect(stderr).not.toMatch(new RegExp(`skipped this cycle: state is locked by .*pid ${child.pid}\\b`));
      expect((await fetch(url + '/readyz')).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});

describe('moor watch readiness', () => {
  test('/readyz turns 503 while cycles cannot run (the state lock held by another run), and 200 once one runs', async () => {
    const cloud = await startCloud();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
    try {
      const dir = workdir({ 'm/secret.txt': 'ready-secret-value\n', 'm/web.yaml': groupManifest('web') });
      expect((await moor(dir, cloud, ['apply', 'm', '--auto-approve'])).code).toBe(0);
      const watch = await startWatch(dir, cloud, ['m', '--interval', CYCLE]);
      try {
        await waitFor(
          async () => (await watch.get('/readyz')).status === 200,
          30_000,
          () => `never ready: ${watch.stderr()}`,
        );
        const lock = join(dir, '.moor/state.json.lock');
        writeFileSync(
          lock,
          JSON.stringify({ id: 'held', who: 'alice@here', pid: holder.pid, host: hostname(), operation: 'apply', since: new Date().toISOString() }),
        );
        const red = await waitFor(
          async () => {
            const r = await watch.get('/readyz');
            return r.status === 503 ? r.text : undefined;
          },
          30_000,
          () => `never red: ${watch.stderr()}`,
          // The third failed cycle is red for one interval (200 ms) before a fourth replaces it: look often.
          20,
        );
        expect(red).toMatch(/^3 cycles in a row could not run: state is locked by alice@here \(pid \d+, moor apply\)/);
        rmSync(lock);
        await waitFor(
          async () => (await watch.get('/readyz')).status === 200,
          30_000,
          () => `never ready again: ${watch.stderr()}`,
        );
      } finally {
        await watch.terminate();
      }
    } finally {
      holder.kill();
      await cloud.stop();
    }
  });
});
