// Benchmark: moor watch replicas as a fleet on PostgreSQL. 300 stacks of 20 container groups each:
//   1. one replica watches all 300 (--self-heal): time until every stack is applied and in sync, then
//      its RSS, PostgreSQL connections and CPU per stack and cycle over two quiet intervals;
//   2. three replicas join one after another: time from each join until the share is fair (±1) and how
//      many stacks were handed over, RSS per replica and per stack held; then kill -9 of one: time until
//      the two others hold its stacks.
// Each replica and the local cloud run in processes of their own (`node bench/fleet.js [STACKS] [GROUPS]`).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { groupManifest, subscription } from './group-manifest.js';
import { startPostgres } from './postgres.js';

const STACKS = Number(process.argv[2] ?? 300);
const GROUPS = Number(process.argv[3] ?? 20);
const INTERVAL_S = 10;
const TOKEN = 'bench-token';
const BIN = fileURLToPath(new URL('../bin/moor.js', import.meta.url));
const CLK_TCK = 100;

function writeStacks(dir) {
  const config = ['stacks:'];
  for (let i = 0; i < STACKS; i++) {
    config.push(`  st-${i}: {paths: [s/${i}]}`);
    const docs = [];
    for (let j = 0; j < GROUPS; j++) docs.push(groupManifest({ name: `g-${i}-${j}`, sub: subscription(i * GROUPS + j), rg: `rg-${i}` }));
    mkdirSync(join(dir, 's', String(i)), { recursive: true });
    writeFileSync(join(dir, 's', String(i), 'groups.yaml'), docs.join('---\n'));
  }
  writeFileSync(join(dir, 'moor.config.yaml'), config.join('\n') + '\n');
}

function start(args, env, cwd, pattern) {
  // MOOR_BENCH_CPU_PROF=DIR: each moor process writes a CPU profile there when it exits (a replica stopped with SIGTERM does).
  const prof = process.env.MOOR_BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.MOOR_BENCH_CPU_PROF] : [];
  const child = spawn(process.execPath, [...prof, BIN, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => {
    err = (err + d.toString()).slice(-20_000);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = new Promise((resolve, reject) => {
    const lines = createInterface({ input: pattern.stream === 'stdout' ? child.stdout : child.stderr });
    lines.on('line', (line) => {
      const m = pattern.re.exec(line);
      if (m) resolve(m[1]);
    });
    exited.then((code) => reject(new Error(`${args[0]} exited with ${code}: ${err}`)));
  });
  if (pattern.stream !== 'stdout') child.stdout.resume();
  return { child, url, exited, stderr: () => err };
}

async function startWatch(dir, env, id) {
  const w = start(['watch', '--all-stacks', '--interval', `${INTERVAL_S}s`, '--self-heal', '--replica-id', id, '--listen', '127.0.0.1:0'], env, dir, {
    stream: 'stderr',
    re: /serving \S+ \S+ \S+ \S+ on (http:\/\/\S+)/,
  });
  const url = await w.url;
  const get = async (path) => (await fetch(url + path)).text();
  return {
    ...w,
    id,
    status: async () => JSON.parse(await get('/api/status')),
    metric: async (name, label = '') => {
      const line = (await get('/metrics')).split('\n').find((l) => l.startsWith(name + (label ? `{${label}}` : ' ')));
      return line ? Number(line.split(' ').pop()) : 0;
    },
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${w.child.pid}/status`, 'utf8'))[1]) / 1024,
    cpuSeconds: () => {
      const fields = readFileSync(`/proc/${w.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
    },
    stop: async () => {
      w.child.kill('SIGTERM');
      await w.exited;
    },
    kill: async () => {
      w.child.kill('SIGKILL');
      await w.exited;
    },
  };
}

async function waitFor(probe, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const holds = async (replicas) => Promise.all(replicas.map(async (r) => (await r.status()).holds.length));
const fair = (counts) => {
  const total = counts.reduce((a, b) => a + b, 0);
  const share = STACKS / counts.length;
  return total === STACKS && counts.every((n) => n >= Math.floor(share) - 1 && n <= Math.ceil(share) + 1);
};
const handedOut = async (replicas) =>
  (await Promise.all(replicas.map((r) => r.metric('moor_stack_handovers_total', 'direction="out"')))).reduce((a, b) => a + b, 0);

async function connections(url) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE 'moor%'`)).rows[0].n);
  } finally {
    await c.end();
  }
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const mb = (v) => `${v.toFixed(0)} MB`;

async function main() {
  const pgServer = await startPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'moor-bench-fleet-'));
  writeStacks(dir);
  const cloud = start(['local-cloud', '--port', '0', '--token', TOKEN, '--data', join(dir, 'cloud.json'), '--no-seed', '--provisioning-ms', '0'], {}, dir, {
    stream: 'stdout',
    re: /listening on (\S+)/,
  });
  const env = { MOOR_STATE: pgServer.url, MOOR_ENDPOINT: await cloud.url, MOOR_TOKEN: TOKEN, MOOR_POLL_INTERVAL_MS: '50', NO_COLOR: '1' };
  const running = [];
  try {
    console.log(`moor watch fleet: ${STACKS} stacks of ${GROUPS} container groups, interval ${INTERVAL_S} s, PostgreSQL state`);
    // 1. One replica, every stack.
    const started = Date.now();
    const solo = await startWatch(dir, env, 'solo');
    running.push(solo);
    await waitFor(
      async () => {
        const st = await solo.status();
        return st.stacks.every((x) => x.result === 'in_sync' || x.result === 'healed') && st.stacks.filter((x) => x.result === 'in_sync').length === STACKS;
      },
      900_000,
      `solo replica never in sync: ${solo.stderr()}`,
    );
    const convergedMs = Date.now() - started;
    const cpu0 = solo.cpuSeconds();
    const runs0 = (await solo.status()).stacks.reduce((a, x) => a + x.runs, 0);
    await new Promise((r) => setTimeout(r, 2 * INTERVAL_S * 1000));
    const cycles = (await solo.status()).stacks.reduce((a, x) => a + x.runs, 0) - runs0;
    const cpuPerCycleMs = ((solo.cpuSeconds() - cpu0) * 1000) / Math.max(1, cycles);
    const soloRss = solo.rssMb();
    const soloConnections = await connections(pgServer.url);
    console.log(`  one replica, ${STACKS} stacks: applied and in sync ${s(convergedMs)} after start (${STACKS * GROUPS} groups created)`);
    console.log(
      `    steady: RSS ${mb(soloRss)} (${((soloRss * 1024) / STACKS).toFixed(0)} KB per stack), ${soloConnections} PostgreSQL connections, CPU ${cpuPerCycleMs.toFixed(1)} ms per stack cycle (${cycles} cycles in ${2 * INTERVAL_S} s)`,
    );
    await solo.stop();
    running.splice(0);

    // 2. Three replicas joining one after another, then a kill -9.
    const a = await startWatch(dir, env, 'replica-a');
    running.push(a);
    await waitFor(async () => (await a.status()).holds.length === STACKS, 120_000, `replica-a did not take every stack: ${a.stderr()}`);
    for (const id of ['replica-b', 'replica-c']) {
      const before = await handedOut(running);
      const joined = await startWatch(dir, env, id);
      const joinedAt = Date.now();
      running.push(joined);
      await waitFor(async () => fair(await holds(running)), 120_000, `not fair after ${id} joined`).catch(async (err) => {
        throw new Error(
          `${err.message}: ${(await holds(running)).join('/')}\n${running
            .map(
              (r) =>
                `--- ${r.id}\n${r
                  .stderr()
                  .split('\n')
                  .filter((l) => !/took the lease|handed the stack/.test(l))
                  .slice(-15)
                  .join('\n')}`,
            )
            .join('\n')}`,
        );
      });
      const ms = Date.now() - joinedAt;
      console.log(
        `  ${id} joins: fair (${(await holds(running)).join('/')}) ${s(ms)} after it served (${(ms / 1000 / INTERVAL_S).toFixed(2)} intervals), ${(await handedOut(running)) - before} stacks handed over`,
      );
    }
    await new Promise((r) => setTimeout(r, INTERVAL_S * 1000));
    const rss = running.map((r) => r.rssMb());
    const held = await holds(running);
    console.log(
      `    RSS per replica: ${rss.map((v, i) => `${running[i].id} ${mb(v)} (${held[i]} stacks)`).join(', ')}; PostgreSQL connections ${await connections(pgServer.url)}`,
    );
    const gone = running.pop();
    await gone.kill();
    const killedAt = Date.now();
    await waitFor(async () => fair(await holds(running)), 120_000, 'not fair after kill -9');
    console.log(`  kill -9 of ${gone.id}: its stacks spread (${(await holds(running)).join('/')}) ${s(Date.now() - killedAt)} after the kill`);
  } finally {
    await Promise.all(running.map((r) => r.kill().catch(() => undefined)));
    cloud.child.kill('SIGTERM');
    await cloud.exited;
    await pgServer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
