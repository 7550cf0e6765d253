// Benchmark of issue 34, `moor discover`: 1,000 container groups made outside moor (PUT directly,
// each with a secure environment variable) in 10 resource groups of one subscription (100 each, one
// location each: the local cloud's quota is 100 groups per subscription and location), discovered
// with --import through the CLI in its own process against a standalone local cloud without latency
// (bound 15 s), then the plan of what it wrote (empty). Then the same discover under --rate-limit 20
// beside its request floor (the burst of ten seconds' worth at once, the rest at the rate): the
// groups' listing is 20 pages (50 groups a page), inside the burst, so it should wait for nothing;
// 400 push datasets need 401 requests (the list, then each one's tables): floor (401 - 200) / 20 s.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startCloud, TOKEN } from './local-cloud.js';

const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const RESOURCE_GROUPS = 10;
const PER_GROUP = 100;
const RATE = 20;
const PAGE = 50;
const WORKSPACE = '0b6f3c2e-4d1a-4f7b-9e8c-2a5d6f7e8a91';
const DATASETS = 400;
/** The local cloud's burst: ten seconds' worth of its rate. */
const BURST = RATE * 10;
const LOCATIONS = ['westeurope', 'northeurope', 'eastus', 'westus', 'uksouth', 'francecentral', 'japaneast', 'australiaeast', 'canadacentral', 'swedencentral'];
const BIN = fileURLToPath(new URL('../bin/moor.js', import.meta.url));
const PEAK_RSS = fileURLToPath(new URL('peak-rss.cjs', import.meta.url));
const TIMELINE = fileURLToPath(new URL('request-timeline.cjs', import.meta.url));

function body(rg, i) {
  return {
    location: LOCATIONS[rg],
    tags: { team: 'bench' },
    properties: {
      osType: 'Linux',
      containers: [
        {
          name: 'app',
          properties: {
            image: 'nginx:1.27',
            ports: [{ port: 80 }],
            resources: { requests: { cpu: 0.5, memoryInGB: 1 } },
            environmentVariables: [
              { name: 'MODE', value: 'bench' },
              { name: 'DB_PASSWORD', secureValue: `bench-secret-${i}` },
            ],
          },
        },
      ],
    },
  };
}

async function request(cloud, method, path, json) {
  const res = await fetch(cloud.url + path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  await res.arrayBuffer();
  return res.status;
}

/** The groups, PUT as another tool would, a few at a time. */
async function makeGroups(cloud) {
  const jobs = [];
  for (let rg = 0; rg < RESOURCE_GROUPS; rg++) for (let i = 0; i < PER_GROUP; i++) jobs.push([rg, i]);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const [rg, i] = jobs[next++];
      const path = `/subscriptions/${SUB}/resourceGroups/rg-${rg}/providers/Vendor.ContainerInstance/containerGroups/g${rg}-${i}?api-version=2026-07-01`;
      const status = await request(cloud, 'PUT', path, body(rg, i));
      if (status >= 300) throw new Error(`PUT ${path}: ${status}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

function moor(cwd, cloud, args, expectCode = 0) {
  const rssFile = join(cwd, '.peak-rss');
  const timelineFile = join(cwd, '.timeline.json');
  const env = { ...process.env, MOOR_ENDPOINT: cloud.url, MOOR_TOKEN: TOKEN, BENCH_PEAK_RSS_FILE: rssFile, BENCH_TIMELINE_FILE: timelineFile, NO_COLOR: '1' };
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--require', PEAK_RSS, '--require', TIMELINE, BIN, ...args], { cwd, env, maxBuffer: 1 << 30 }, (err, stdout, stderr) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const code = err ? err.code : 0;
      if (code !== expectCode)
        return reject(new Error(`moor ${args.join(' ')} exited ${code}: ${String(stdout).slice(0, 2000)}${String(stderr).slice(-2000)}`));
      const timeline = JSON.parse(readFileSync(timelineFile, 'utf8'));
      const requests = timeline.requests ?? [];
      const first = Math.min(...requests.map((r) => r.start));
      const last = Math.max(...requests.map((r) => r.end ?? r.start));
      resolve({
        ms,
        stdout: String(stdout),
        peakMB: Number(readFileSync(rssFile, 'utf8')),
        requests: requests.length,
        requestMs: last - first,
        cpuMs: timeline.cpuMs.user + timeline.cpuMs.system,
      });
    });
  });
}

/** `count` push datasets, each of one table, in one workspace, made as another tool would. */
async function makeDatasets(cloud, count) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const status = await request(cloud, 'POST', `/v1.0/myorg/groups/${WORKSPACE}/datasets`, {
        name: `sales-${i % 50}`,
        tables: [{ name: 'Orders', columns: [{ name: 'OrderID', dataType: 'Int64' }] }],
      });
      if (status >= 300) throw new Error(`POST dataset: ${status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

export async function run(print = () => undefined) {
  const lines = [];
  const say = (line) => {
    lines.push(line);
    print(line);
  };
  say(
    `discover benchmark (issue 34): load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at start`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'moor-bench-discover-'));
  let cloud = await startCloud({ latencyMs: 0, dataFile: join(dir, 'cloud.json') });
  try {
    await makeGroups(cloud);
    const n = RESOURCE_GROUPS * PER_GROUP;
    const found = await moor(dir, cloud, ['discover', '--subscription', SUB, '--out', 'adopted', '--import']);
    if (!found.stdout.includes(`Imported ${n} resources`)) throw new Error(`discover did not import ${n}: ${found.stdout.slice(-500)}`);
    say(
      `  discover --import of ${n.toLocaleString('en')} container groups in ${RESOURCE_GROUPS} resource groups: ${s(found.ms)} (bound 15 s), CPU ${s(found.cpuMs)}, ${found.requests} requests, peak ${found.peakMB} MB`,
    );
    const plan = await moor(dir, cloud, ['plan', 'adopted', '--detailed-exitcode']);
    say(`  plan of what it wrote: ${s(plan.ms)}, exit 0 (no changes)`);
    await makeDatasets(cloud, DATASETS);
    await cloud.close(); // its data is written on close; the throttled cloud starts from it
    cloud = await startCloud({ latencyMs: 0, rateLimit: RATE, dataFile: join(dir, 'cloud.json') });
    for (const [what, args, requests] of [
      [`${n.toLocaleString('en')} container groups`, ['--subscription', SUB], n / PAGE],
      [`${DATASETS} push datasets of one workspace (50 names, 8 datasets each)`, ['--workspace', WORKSPACE], DATASETS + 1],
    ]) {
      const throttledDir = mkdtempSync(join(tmpdir(), 'moor-bench-discover-throttled-'));
      try {
        const throttled = await moor(throttledDir, cloud, ['discover', ...args, '--out', 'adopted', '--import']);
        // The fewest seconds the requests need: the burst goes at once, the rest at the refill rate.
        const floorMs = (Math.max(0, requests - BURST) / RATE) * 1000;
        const ratio =
          floorMs > 0
            ? `ratio ${(throttled.ms / floorMs).toFixed(2)} (bound 1.1)`
            : `the burst holds them all: no wait, ${(throttled.ms / found.ms).toFixed(2)}x the unthrottled run's wall`;
        say(
          `  discover --import of ${what} under --rate-limit ${RATE}: ${s(throttled.ms)} wall, CPU ${s(throttled.cpuMs)}, ${throttled.requests} requests (${s(throttled.requestMs)} first out to last back)   floor ${s(floorMs)} (${requests} requests less the burst of ${BURST}, over ${RATE}/s)   ${ratio}`,
        );
      } finally {
        rmSync(throttledDir, { recursive: true, force: true });
      }
      await cloud.close();
      cloud = await startCloud({ latencyMs: 0, rateLimit: RATE, dataFile: join(dir, 'cloud.json') }); // a fresh bucket for the next
    }
  } finally {
    await cloud.close();
    rmSync(dir, { recursive: true, force: true });
  }
  say(
    `  load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at end`,
  );
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run(console.log);
}
