// Benchmark: moor watch's reconcile cycle, soaked. 200 container groups applied once, then 500 report-only
// cycles (plan under the state lock, as each watch cycle runs). Prints resident memory after warm-up and at
// the end (growth must stay under 10 %) and the open handles and requests (must not grow). The engine runs
// from dist/ in this process; the local cloud is a standalone process over real HTTP on loopback.
// `node bench/watch-soak.js CYCLES RESOURCES` runs a smaller soak; a third argument `postgres` keeps state in
// PostgreSQL (bench/postgres.js) and runs the cycles under a watch lease, as a replica does: its heartbeat
// connection, and the state lock taken through it every cycle.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupManifest, subscription } from './group-manifest.js';
import { startCloud, TOKEN } from './local-cloud.js';
import { startPostgres } from './postgres.js';

const CYCLES = Number(process.argv[2] ?? 500);
const RESOURCES = Number(process.argv[3] ?? 200);
const WARM_UP = Math.max(20, Math.floor(CYCLES / 10));
const ON_POSTGRES = process.argv[4] === 'postgres';

const dist = (p) => import(new URL(`../dist/${p}`, import.meta.url).href);

function handles() {
  // Timers of the cycle just finished may still be closing: count what stays.
  return process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').length;
}

function rssMb() {
  globalThis.gc?.();
  return process.memoryUsage().rss / 2 ** 20;
}

const [{ openSession }, { reconcileOnce }, { BUILT_IN_KINDS }] = await Promise.all([
  dist('session/open-session.js'),
  dist('watch/reconcile.js'),
  dist('resources/registry.js'),
]);

const dir = mkdtempSync(join(tmpdir(), 'moor-bench-soak-'));
const cloud = await startCloud({ latencyMs: 0 });
const postgres = ON_POSTGRES ? await startPostgres() : undefined;
try {
  const docs = [];
  for (let i = 0; i < RESOURCES; i++) docs.push(groupManifest({ name: `g${i}`, sub: subscription(i), rg: 'rg-soak' }));
  writeFileSync(join(dir, 'groups.yaml'), docs.join('---\n'));
  const env = { MOOR_ENDPOINT: cloud.url, MOOR_TOKEN: TOKEN, MOOR_POLL_INTERVAL_MS: '20' };
  const state = postgres ? `${postgres.url}?workspace=bench-soak-${process.pid}` : undefined;
  const session = await openSession({
    cwd: dir,
    env,
    state,
    events: () => undefined,
    kinds: BUILT_IN_KINDS,
    startLocalCloud: () => {
      throw new Error('the soak uses a standalone cloud');
    },
  });
  const options = (selfHeal) => ({ paths: [dir], selfHeal, prune: false, allowDestructive: [], cwd: dir, env, signal: new AbortController().signal });
  const lease = postgres ? await session.backend.takeLease('moor watch', 30_000) : undefined;
  if (postgres && !lease) throw new Error('the watch lease is held by another process');
  const first = await reconcileOnce(session, options(true));
  if (first.result !== 'healed') throw new Error(`the first cycle did not apply: ${first.result} ${first.error ?? ''}`);
  let warm;
  const started = process.hrtime.bigint();
  for (let cycle = 1; cycle <= CYCLES; cycle++) {
    const report = await reconcileOnce(session, options(false));
    if (report.result !== 'in_sync') throw new Error(`cycle ${cycle}: ${report.result} ${report.error ?? ''}`);
    if (cycle === WARM_UP) warm = { rss: rssMb(), handles: handles() };
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const end = { rss: rssMb(), handles: handles() };
  if (lease && !(await lease.held())) throw new Error('the watch lease was lost during the soak');
  await lease?.release();
  await session.close();
  const growth = (end.rss - warm.rss) / warm.rss;
  console.log(
    `watch soak${postgres ? ' (PostgreSQL state, under a watch lease)' : ''}: ${CYCLES} cycles over ${RESOURCES} container groups in ${seconds.toFixed(1)} s (${((1000 * seconds) / CYCLES).toFixed(0)} ms a cycle)`,
  );
  console.log(
    `  RSS after ${WARM_UP} cycles ${warm.rss.toFixed(1)} MiB, at the end ${end.rss.toFixed(1)} MiB: growth ${(100 * growth).toFixed(1)} % (bound 10 %) ${growth < 0.1 ? 'ok' : 'OVER'}`,
  );
  console.log(`  open handles after warm-up ${warm.handles}, at the end ${end.handles} ${end.handles <= warm.handles ? 'ok' : 'GREW'}`);
  if (!globalThis.gc) console.log('  (run with node --expose-gc for RSS after a full collection)');
} finally {
  await postgres?.stop();
  await cloud.close();
  rmSync(dir, { recursive: true, force: true });
}
