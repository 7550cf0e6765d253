// Benchmark of issue 22, "100,000 resources on one machine": `moor apply` and a no-op `moor plan`
// of N container groups (1,000 resource groups, spread over subscriptions within the quota of 100
// groups each) run through the CLI, each in its own process, against a standalone local cloud with
// no latency; peak memory is each moor process's own. Then, at the largest N: one changed group
// applied, the cost of recording one change in state of N records and of 100,000 (N's records
// repeated, when N is smaller) on the file backend and PostgreSQL (bench/postgres.js), with what
// the unlock after it costs and does, and a no-op plan under --rate-limit 20 beside its request
// floor. `node bench/scale.js 10000 30000` runs only the sizes named (default 10,000 30,000 100,000).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { groupManifest, subscription } from './group-manifest.js';
import { startCloud, TOKEN } from './local-cloud.js';
import { startPostgres } from './postgres.js';
import { summarizeTimeline, timelineLine } from './timeline-summary.js';

const RESOURCE_GROUPS = 1000;
const RATE = 20;
/** Recording one change is bounded at this many records. */
const BOUND_RECORDS = 100_000;
/** The local cloud's page of a container-group list (its LIST_PAGE_SIZE). */
const PAGE = 50;
const BIN = fileURLToPath(new URL('../bin/moor.js', import.meta.url));
const PEAK_RSS = fileURLToPath(new URL('peak-rss.cjs', import.meta.url));
const TIMELINE = fileURLToPath(new URL('request-timeline.cjs', import.meta.url));
const dist = (p) => import(new URL(`../dist/${p}`, import.meta.url).href);

/** Group i of n: its subscription holds at most the quota, its resource group one of 1,000. */
function group(i, n, tag = 'bench') {
  const perGroup = Math.max(1, Math.floor(n / RESOURCE_GROUPS));
  return groupManifest({ name: `g${i}`, sub: subscription(i), rg: `rg-${Math.floor(i / perGroup)}` }).replace('team: bench', `team: ${tag}`);
}

function writeManifests(dir, n) {
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < n; f += 100) {
    const docs = [];
    for (let i = f; i < Math.min(n, f + 100); i++) docs.push(group(i, n));
    writeFileSync(join(dir, `groups-${f}.yaml`), docs.join('---\n'));
  }
}

/**
 * Runs `moor ARGS` in `cwd` against the cloud; its wall time and peak RSS (and with `timeline`, its
 * requests' timeline, bench/request-timeline.cjs); throws on an unexpected exit code.
 */
function moor(cwd, cloud, args, expectCode = 0, { timeline = false } = {}) {
  const rssFile = join(cwd, '.peak-rss');
  const timelineFile = join(cwd, '.timeline.json');
  const env = {
    ...process.env,
    MOOR_ENDPOINT: cloud.url,
    MOOR_TOKEN: TOKEN,
    BENCH_PEAK_RSS_FILE: rssFile,
    NO_COLOR: '1',
    ...(timeline ? { BENCH_TIMELINE_FILE: timelineFile } : {}),
  };
  const preload = ['--require', PEAK_RSS, ...(timeline ? ['--require', TIMELINE] : [])];
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...preload, BIN, ...args], { cwd, env, maxBuffer: 1 << 30 }, (err, stdout, stderr) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const code = err ? err.code : 0;
      if (code !== expectCode)
        return reject(new Error(`moor ${args.join(' ')} exited ${code}: ${String(stdout).slice(0, 3000)}${String(stderr).slice(-2000)}`));
      resolve({ ms, peakMB: Number(readFileSync(rssFile, 'utf8')), ...(timeline ? { timeline: JSON.parse(readFileSync(timelineFile, 'utf8')) } : {}) });
    });
  });
}

/** apply of n groups, then a no-op plan; the workspace is kept for the scenarios that follow. */
async function applyAndPlan(n) {
  const dir = mkdtempSync(join(tmpdir(), 'moor-bench-scale-'));
  writeManifests(join(dir, 'manifests'), n);
  // The cloud's data file lives in the workspace: the throttled plan restarts the cloud from it.
  const cloud = await startCloud({ latencyMs: 0, dataFile: join(dir, 'cloud.json') });
  try {
    const apply = await moor(dir, cloud, ['apply', 'manifests', '--auto-approve', '--output', 'jsonl']);
    const plan = await moor(dir, cloud, ['plan', 'manifests', '--detailed-exitcode']);
    const stateBytes = statSync(join(dir, '.moor', 'state.json')).size;
    return { n, dir, cloud, apply, plan, stateBytes };
  } catch (err) {
    await cloud.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** One group's manifest changed at n: the apply through the CLI. */
async function oneChange(ws) {
  const file = join(ws.dir, 'manifests', 'groups-0.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('team: bench', 'team: changed'));
  return moor(ws.dir, ws.cloud, ['apply', 'manifests', '--auto-approve', '--output', 'jsonl']);
}

/** Milliseconds to record one changed record durably (and to release the lock after it) in a backend holding `doc`. */
async function recordOneChange(backend, StateRecorder) {
  const lock = await backend.lock('bench');
  try {
    const state = await backend.read();
    const recorder = new StateRecorder(backend, state);
    const address = Object.keys(state.resources)[0];
    const start = process.hrtime.bigint();
    await recorder.put(address, { ...state.resources[address], updatedAt: new Date().toISOString() });
    const writeMs = Number(process.hrtime.bigint() - start) / 1e6;
    const unlockStart = process.hrtime.bigint();
    await backend.unlock(lock);
    return { writeMs, unlockMs: Number(process.hrtime.bigint() - unlockStart) / 1e6, unlockNote: unlockNote(backend) };
  } catch (err) {
    await backend.unlock(lock).catch(() => undefined);
    throw err;
  }
}

/** The state's records repeated under new addresses up to `n` (a workspace smaller than the bound's 100,000). */
function repeated(resources, n) {
  const records = Object.values(resources);
  const out = {};
  for (let i = 0; i < n; i++) {
    const r = records[i % records.length];
    out[`${r.kind}/s${i}`] = { ...r, name: `s${i}`, id: `${r.id}-s${i}` };
  }
  return out;
}

/** State of `n` records written whole beside the workspace's own state, for recordOneChange. */
async function syntheticState(ws, n, FileStateBackend) {
  const own = new FileStateBackend(join(ws.dir, '.moor', 'state.json'));
  const { resources } = await own.read();
  await own.close();
  const dir = join(ws.dir, `.moor-${n}`);
  mkdirSync(dir, { recursive: true });
  const file = new FileStateBackend(join(dir, 'state.json'));
  const lock = await file.lock('bench');
  await file.read();
  await file.write({ version: 1, resources: repeated(resources, n) }, { compact: true });
  await file.unlock(lock);
  return file;
}

/** The cost of one change in state of `n` records (the workspace's own, or repeated up to n) on file and PostgreSQL. */
/** What the unlock just measured did: a file backend folds its journal into the file (a whole rewrite) or keeps it. */
function unlockNote(backend) {
  if (!backend.journalPath) return 'ends the lock session';
  return existsSync(backend.journalPath) ? 'journal kept, the file not rewritten' : 'journal folded: the file rewritten whole';
}

async function stateWriteCosts(ws, n = ws.n) {
  const [{ FileStateBackend }, { StateRecorder }] = await Promise.all([dist('engine/state/file-backend.js'), dist('engine/state/recorder.js')]);
  const file = n === ws.n ? new FileStateBackend(join(ws.dir, '.moor', 'state.json')) : await syntheticState(ws, n, FileStateBackend);
  const costs = { file: await recordOneChange(file, StateRecorder) };
  await file.close();
  costs.postgres = await postgresCost(await file.read(), StateRecorder).catch((err) => ({ skipped: err.message }));
  return costs;
}

/** The same state in PostgreSQL (bench/postgres.js): written whole once, then one change recorded. */
async function postgresCost(doc, StateRecorder) {
  const { PostgresStateBackend } = await dist('engine/state/postgres-backend.js');
  const server = await startPostgres();
  const backend = new PostgresStateBackend(`${server.url}?workspace=bench-scale-${process.pid}`);
  try {
    const lock = await backend.lock('bench');
    await backend.read();
    await backend.write({ version: 1, resources: doc.resources });
    await backend.unlock(lock);
    return await recordOneChange(backend, StateRecorder);
  } finally {
    await backend.close();
    await server.stop();
  }
}

/**
 * The fewest requests a no-op plan of n groups needs: a list page per PAGE groups of each resource
 * group, named per subscription (a resource group's groups may span two subscriptions, as rg-3's do
 * at 30,000: 1,200 resource groups, not 1,000), and one GET where a resource group holds one group.
 */
function requestsNeeded(n) {
  const perResourceGroup = new Map();
  for (let i = 0; i < n; i++) {
    const key = `${subscription(i)}/${Math.floor(i / Math.max(1, Math.floor(n / RESOURCE_GROUPS)))}`;
    perResourceGroup.set(key, (perResourceGroup.get(key) ?? 0) + 1);
  }
  let requests = 0;
  for (const count of perResourceGroup.values()) requests += Math.ceil(count / PAGE);
  return requests;
}

/** A no-op plan of the workspace against a cloud with the same data under --rate-limit RATE. */
async function throttledPlan(ws) {
  await ws.cloud.close(); // its data file is written on close; a throttled cloud starts from it
  const cloud = await startCloud({ latencyMs: 0, rateLimit: RATE, dataFile: ws.cloud.dataFile });
  ws.cloud = cloud;
  const plan = await moor(ws.dir, cloud, ['plan', 'manifests', '--detailed-exitcode'], 0, { timeline: true });
  const pages = requestsNeeded(ws.n);
  const floorMs = (Math.max(0, pages - RATE * 10) / RATE) * 1000; // the burst of 10 s' worth, then the refill
  return { ...plan, pages, floorMs, timeline: summarizeTimeline(plan.timeline, { burst: RATE * 10, rate: RATE }) };
}

const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const k = (n) => n.toLocaleString('en');

export async function run(sizes = [10_000, 30_000, 100_000], print = () => undefined) {
  const lines = [];
  const say = (line) => {
    lines.push(line);
    print(line);
  };
  say(
    `scale benchmark (issue 22): load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at start`,
  );
  const perResource = new Map();
  for (const [i, n] of sizes.entries()) {
    const ws = await applyAndPlan(n);
    try {
      perResource.set(n, ws.plan.ms / n);
      say(
        `  ${k(n).padStart(7)} groups: apply ${s(ws.apply.ms)} peak ${ws.apply.peakMB} MB` +
          `   no-op plan ${s(ws.plan.ms)} (${((ws.plan.ms / n) * 1000).toFixed(0)} µs/group) peak ${ws.plan.peakMB} MB` +
          `   state ${(ws.stateBytes / 1e6).toFixed(1)} MB (${Math.round(ws.stateBytes / n)} B/group)`,
      );
      if (i !== sizes.length - 1) continue;
      const change = await oneChange(ws);
      say(`  one change at ${k(n)}: apply ${s(change.ms)} peak ${change.peakMB} MB`);
      // The bound is at 100,000 records: a smaller run measures it on its records repeated up to that.
      for (const records of n < BOUND_RECORDS ? [n, BOUND_RECORDS] : [n]) {
        const costs = await stateWriteCosts(ws, records);
        const what = `state write of one change at ${k(records)} records${records === n ? '' : ` (${k(n)} repeated)`}`;
        for (const [backend, c] of Object.entries(costs)) {
          say(
            c.skipped
              ? `  ${what} on ${backend}: skipped (${c.skipped})`
              : `  ${what} on ${backend}: ${c.writeMs.toFixed(1)} ms (bound 50 ms), then unlock ${c.unlockMs.toFixed(1)} ms (${c.unlockNote})`,
          );
        }
      }
      const throttled = await throttledPlan(ws);
      say(
        `  no-op plan of ${k(n)} under --rate-limit ${RATE}: ${s(throttled.ms)}   floor ${s(throttled.floorMs)} (${k(throttled.pages)} requests: list pages per resource group and subscription, less the burst, over the refill)   ratio ${(throttled.ms / throttled.floorMs).toFixed(2)} (bound 1.1)`,
      );
      say(`    its ${timelineLine(throttled.timeline)}`);
    } finally {
      await ws.cloud.close();
      rmSync(ws.dir, { recursive: true, force: true });
    }
  }
  const [first] = sizes;
  for (const n of sizes.slice(1))
    say(`  plan time per group at ${k(n)} / at ${k(first)}: ${(perResource.get(n) / perResource.get(first)).toFixed(2)} (bound 1.2)`);
  say(
    `  bounds: apply of 30,000 < 600 MB; apply of 100,000 < 1,536 MB; plan of 100,000 < 1,024 MB; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at end`,
  );
  return lines.join('\n');
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  await run(sizes.length ? sizes : undefined, (line) => process.stdout.write(line + '\n'));
}
