// Benchmark: plan and apply of 1,000 container groups against the local cloud with 20 ms latency at
// parallelism 16, then a no-op plan of 10,000. Prints wall time, the bound N x latency / parallelism,
// their ratio and peak memory. The engine runs from dist/ in this process; the local cloud is a
// standalone `moor local-cloud` process, reached over real HTTP on loopback.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { groupManifest, subscription } from './group-manifest.js';
import { startCloud, TOKEN } from './local-cloud.js';
import { engineModules } from './engine-modules.js';

const LATENCY_MS = 20;
const PARALLELISM = 16;

function manifests(from, to) {
  const docs = [];
  for (let i = from; i < to; i++) {
    docs.push(groupManifest({ name: `g${i}`, sub: subscription(i), rg: 'rg-bench' }));
  }
  return docs.join('---\n');
}

async function timed(fn) {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

/** Creates `count` groups, then plans again; returns timings. */
async function scenario(e, count, latencyMs) {
  const dir = mkdtempSync(join(tmpdir(), 'moor-bench-apply-'));
  const cloud = await startCloud({ latencyMs });
  try {
    for (let f = 0; f < count; f += 100) writeFileSync(join(dir, `groups-${f}.yaml`), manifests(f, Math.min(count, f + 100)));
    const endpoints = Object.fromEntries(e.SERVICE_NAMES.map((s) => [s, cloud.url]));
    // As a session does: one request scheduler, PARALLELISM requests in flight per service.
    const scheduler = new e.RequestScheduler({ concurrency: PARALLELISM });
    const providers = e.createProviders({ endpoints, defaultToken: TOKEN, pollIntervalMs: 50, scheduler });
    const ctx = { providers, log: () => undefined };
    const backend = e.openStateBackend(join(dir, 'state.json'), dir);
    const { manifests: loaded, diagnostics } = await e.loadAndValidate([dir], e.BUILT_IN_KINDS, { cwd: dir });
    if (diagnostics.some((d) => d.severity === 'error') || loaded.length !== count) throw new Error(`manifests invalid: ${diagnostics[0]?.message}`);
    const plan = async () =>
      e.makePlan({ manifests: loaded, kinds: e.BUILT_IN_KINDS, state: await backend.read(), ctx, resolve: { cwd: dir, env: {} }, parallelism: PARALLELISM });
    const first = await timed(plan);
    const errors = first.value.plan.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length) throw new Error(`plan failed: ${errors[0].message}`);
    // As `moor apply` does: under the state lock, recording every change as it happens.
    const lock = await backend.lock('moor apply');
    const applied = await timed(async () => {
      const recorder = new e.StateRecorder(backend, await backend.read());
      return e.applyPlan({ steps: first.value.steps, manifests: loaded, recorder, ctx, resolve: { cwd: dir, env: {} }, parallelism: PARALLELISM });
    });
    await backend.unlock(lock);
    const failed = applied.value.filter((o) => o.status !== 'done');
    if (failed.length) throw new Error(`${failed.length} steps failed, first: ${failed[0].error}`);
    const noop = await timed(plan);
    const changes = noop.value.plan.changes.filter((c) => c.action !== 'no-op').length;
    if (changes) throw new Error(`the re-plan should be empty, has ${changes} changes`);
    await backend.close();
    return { planMs: first.ms, applyMs: applied.ms, noopPlanMs: noop.ms };
  } finally {
    await cloud.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run() {
  const e = await engineModules();
  const small = await scenario(e, 1000, LATENCY_MS);
  const large = await scenario(e, 10_000, LATENCY_MS);
  const bound = (n) => (n * LATENCY_MS) / PARALLELISM;
  return {
    name: 'apply',
    latencyMs: LATENCY_MS,
    parallelism: PARALLELISM,
    rows: [
      { what: 'plan of 1,000 (all create)', ms: small.planMs, boundMs: bound(1000) },
      { what: 'apply of 1,000', ms: small.applyMs, boundMs: bound(1000) },
      { what: 'no-op plan of 1,000', ms: small.noopPlanMs, boundMs: bound(1000) },
      { what: 'no-op plan of 10,000', ms: large.noopPlanMs, boundMs: bound(10_000) },
    ],
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

export function format(r) {
  const lines = [`apply benchmark: ${r.latencyMs} ms latency, parallelism ${r.parallelism}; bound = N x latency / parallelism`];
  for (const row of r.rows) {
    lines.push(
      `  ${row.what.padEnd(28)} ${(row.ms / 1000).toFixed(2).padStart(7)} s   bound ${(row.boundMs / 1000).toFixed(2).padStart(6)} s   ratio ${(row.ms / row.boundMs).toFixed(2)}`,
    );
  }
  lines.push(`  peak RSS ${r.peakRssMB} MB`);
  return lines.join('\n');
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  process.stdout.write(format(await run()) + '\n');
}
