// Benchmark: the dashboard with 10,000 resources (two stacks of 5,000). Budgets: /api/status answers in
// under 100 ms; the page is usable — fetched, the table drawn, its first rows visible — in under 1 s.
// The watch's HTTP server and dashboard run from dist/ in this process, over real HTTP on loopback; the
// stacks' last cycles are made up (planning 10,000 resources against the local cloud is what
// bench/scale.js measures), in the shape reconcile gives them: statuses, a plan with field diffs, a graph.
// The page runs in Chromium (a system one when installed, else the one in @sparticuz/chromium).
// `node bench/dashboard.js N` runs it with N resources.
import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

const RESOURCES = Number(process.argv[2] ?? 10_000);
const STATUS_BUDGET_MS = 100;
const PAGE_BUDGET_MS = 1000;
const ROUNDS = 5;

const dist = (p) => import(new URL(`../dist/${p}`, import.meta.url).href);
const [{ serveEndpoints }, { Dashboard }, { LiveFeed }, { WatchMetrics }, { CachedJson }] = await Promise.all([
  dist('watch/http-server.js'),
  dist('watch/dashboard/dashboard.js'),
  dist('watch/dashboard/live-feed.js'),
  dist('watch/metrics.js'),
  dist('watch/cached-json.js'),
]);

/** A stack's last cycle as reconcile reports it: most in sync, some drifted, failed, in progress, unknown. */
function madeUpCycle(stack, count) {
  const resources = [];
  const changes = [];
  const deps = new Map();
  const now = new Date().toISOString();
  for (let i = 0; i < count; i++) {
    const context = i % 100 === 0;
    const address = context ? `AuthContext/c${((i / 100) % 99) + 1}-${stack}-${i}` : `ContainerGroup/${stack}-g${i}`;
    const status = i % 97 === 1 ? 'drifted' : i % 211 === 2 ? 'failed' : i % 401 === 3 ? 'in_progress' : i % 503 === 4 ? 'unknown' : 'in_sync';
    const kind = address.split('/')[0];
    resources.push({
      address,
      kind,
      status,
      changedAt: now,
      ...(status === 'failed' ? { action: 'update', detail: 'InternalServerError: the service failed (request id 0f6c…)' } : {}),
    });
    const fields =
      status === 'drifted'
        ? [
            {
              path: '/properties/containers[name=app]/properties/image',
              op: 'replace',
              before: 'nginx:1.26',
              after: 'nginx:1.27',
              cause: 'drift',
              sensitive: false,
              forcesReplace: false,
            },
          ]
        : [];
    changes.push({ address, kind, action: fields.length ? 'update' : 'no-op', fields, patch: [], drift: fields.length > 0, destructive: false });
    if (!context) deps.set(address, [resources[Math.floor(i / 100) * 100].address]);
  }
  const users = new Map();
  for (const [a, ds] of deps) for (const d of ds) users.set(d, [...(users.get(d) ?? []), a]);
  const graph = { nodes: resources.map((r) => r.address), dependenciesOf: (a) => deps.get(a) ?? [], dependentsOf: (a) => users.get(a) ?? [] };
  const plan = { format: 'moor-plan/1', serial: 1, changes, summary: {}, diagnostics: [] };
  return { result: 'drifted', resources, findings: [], plan, graph };
}

function statusDocument(stacks) {
  return {
    format: 'moor-watch-status/1',
    stacks: stacks.map((s) => ({
      stack: s.name,
      standby: false,
      runs: 1,
      consecutiveFailures: 0,
      lastRunAt: new Date().toISOString(),
      lastSuccessAt: null,
      nextRunAt: null,
      result: s.report.result,
      error: null,
      findings: [],
      resources: s.report.resources,
      lastRun: null,
    })),
  };
}

function systemChromium() {
  if (process.env.MOOR_CHROMIUM) return process.env.MOOR_CHROMIUM;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {
      // not installed
    }
  }
  return undefined;
}

/**
 * No GPU: without one, headless Chromium draws through a software GL (SwiftShader) that costs a few
 * hundred milliseconds of CPU per page on this machine and tells nothing of the page; a user's browser
 * composites on its GPU.
 */
const PAGE_ONLY = ['--disable-gpu'];

async function launch() {
  const system = systemChromium();
  if (system) return chromium.launch({ executablePath: system, args: ['--no-sandbox', ...PAGE_ONLY] });
  const { default: packaged } = await import('@sparticuz/chromium');
  const left = ['--disable-web-security', '--allow-running-insecure-content', '--single-process'];
  return chromium.launch({ executablePath: await packaged.executablePath(), args: [...packaged.args.filter((a) => !left.includes(a)), ...PAGE_ONLY] });
}

/** CPU time (user + system, ms) of this process's descendants (the browser's processes), from /proc (Linux); undefined elsewhere. */
function childrenCpuMs() {
  const rootPid = process.pid;
  try {
    const stats = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map((pid) => {
        try {
          const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
          return { pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
        } catch {
          return undefined;
        }
      })
      .filter(Boolean);
    const tree = new Set([rootPid]);
    for (let grew = true; grew;) {
      grew = false;
      for (const s of stats)
        if (!tree.has(s.pid) && tree.has(s.ppid)) {
          tree.add(s.pid);
          grew = true;
        }
    }
    return stats.filter((s) => tree.has(s.pid) && s.pid !== rootPid).reduce((sum, s) => sum + s.ticks, 0) * 10;
  } catch {
    return undefined;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs) => Math.max(...xs);

const stacks = ['dev', 'prod'].map((name) => ({ name, report: madeUpCycle(name, RESOURCES / 2) }));
const session = { backend: { read: async () => ({ resources: {} }), readHistory: async () => [] } };
const dashboard = new Dashboard(
  () => stacks.map((s) => ({ name: s.name, session, state: () => ({ name: s.name, runs: 1, failures: 0, standby: false, lastReport: s.report }) })),
  new WatchMetrics(),
  new LiveFeed(),
);
// As the watch serves it: made once per change of the stacks (here: one cycle each), then served as it is.
const status = new CachedJson(
  () => 'after one cycle',
  () => statusDocument(stacks),
);
const { Masker } = await dist('core/masker.js');
const server = await serveEndpoints(
  { address: { host: '127.0.0.1', port: 0, loopback: true }, masker: new Masker() },
  {
    healthy: () => true,
    notReady: () => undefined,
    metrics: async () => ({ contentType: 'text/plain', text: '' }),
    status: () => status.answer(),
    dashboard,
  },
);
const browser = await launch();
try {
  // curl, a client of its own process, times each answer (connection to last byte), so this process's
  // own reading of 1 MiB does not count as the server's time.
  const statusMs = [];
  const cpuMs = [];
  let bytes = 0;
  for (let i = 0; i < 20; i++) {
    const cpu = process.cpuUsage();
    const { stdout } = await promisify(execFile)('curl', ['-s', '-o', '/dev/null', '-w', '%{time_total} %{size_download}', `${server.url}/api/status`]);
    const [total, size] = stdout.split(' ').map(Number);
    statusMs.push(total * 1000);
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
    bytes = size;
  }
  const served = statusMs.slice(1);
  const all = [statusMs[0], ...served];
  console.log(
    `dashboard: /api/status with ${RESOURCES} resources (${(bytes / 2 ** 20).toFixed(1)} MiB): the first after a cycle (serialized) ${statusMs[0].toFixed(1)} ms; then median ${median(served).toFixed(1)} ms, slowest ${max(served).toFixed(1)} ms (budget ${STATUS_BUDGET_MS} ms) ${max(all) < STATUS_BUDGET_MS ? 'ok' : 'OVER BUDGET'}`,
  );
  const zipped = [];
  for (let i = 0; i < 10; i++) {
    const { stdout } = await promisify(execFile)('curl', [
      '-s',
      '--compressed',
      '-o',
      '/dev/null',
      '-w',
      '%{time_total} %{size_download}',
      `${server.url}/api/status`,
    ]);
    const [total, size] = stdout.split(' ').map(Number);
    zipped.push(total * 1000);
    bytes = size;
  }
  console.log(
    `dashboard: /api/status gzipped, as browsers take it (${(bytes / 2 ** 10).toFixed(0)} KiB): median ${median(zipped).toFixed(1)} ms, slowest ${max(zipped).toFixed(1)} ms`,
  );
  // CPU time the server spent per answer: what a busy machine's load average does not inflate.
  console.log(
    `dashboard: /api/status server CPU per answer: first ${cpuMs[0].toFixed(1)} ms, then median ${median(cpuMs.slice(1)).toFixed(1)} ms (load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores)`,
  );

  // The floor: what a navigation to a page of nothing (one small SVG) costs this browser on this machine.
  const floor = [];
  for (let i = 0; i < ROUNDS; i++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const t = performance.now();
    await page.goto(`${server.url}/assets/favicon.svg`);
    floor.push(performance.now() - t);
    await page.close();
  }
  console.log(`dashboard: the browser's floor, a navigation to one small SVG: median ${median(floor).toFixed(0)} ms`);
  const usable = [];
  const browserCpu = [];
  const busy = [];
  const search = [];
  const scroll = [];
  for (let i = 0; i < ROUNDS; i++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const cpuBefore = childrenCpuMs();
    const t = performance.now();
    await page.goto(`${server.url}/`);
    await page.locator('tr[data-address]').first().waitFor({ state: 'visible' });
    await page.locator('[data-testid="row-count"]', { hasText: `${RESOURCES} resources` }).waitFor();
    usable.push(performance.now() - t);
    const cpuAfter = childrenCpuMs();
    if (cpuBefore !== undefined && cpuAfter !== undefined) browserCpu.push(cpuAfter - cpuBefore);
    const { metrics } = await cdp.send('Performance.getMetrics');
    busy.push(metrics.find((m) => m.name === 'TaskDuration').value * 1000);
    const inPage = await page.evaluate(() => performance.now());
    if (i === 0)
      console.log(
        `dashboard: first page load: usable ${usable[0].toFixed(0)} ms from the request (${inPage.toFixed(0)} ms of the page's own clock), ${await page.locator('tr[data-address]').count()} rows drawn of ${RESOURCES}`,
      );
    const s = performance.now();
    await page.getByRole('searchbox').fill(`prod-g${RESOURCES / 2 - 1}`);
    await page.locator('[data-testid="row-count"]', { hasText: `1 of ${RESOURCES} resources` }).waitFor();
    search.push(performance.now() - s);
    await page.getByRole('searchbox').fill('');
    await page.locator('[data-testid="row-count"]', { hasText: `${RESOURCES} resources` }).waitFor();
    const r = performance.now();
    await page.locator('.table-box').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.locator(`tr[data-address="ContainerGroup/prod-g${RESOURCES / 2 - 1}"]`).waitFor({ state: 'visible' });
    scroll.push(performance.now() - r);
    await page.close();
  }
  console.log(
    `dashboard: page usable with ${RESOURCES} rows: median ${median(usable).toFixed(0)} ms, slowest ${max(usable).toFixed(0)} ms over ${ROUNDS} loads (budget ${PAGE_BUDGET_MS} ms) ${max(usable) < PAGE_BUDGET_MS ? 'ok' : 'OVER BUDGET'}`,
  );
  if (browserCpu.length)
    console.log(
      `dashboard: CPU the browser spent making the page usable (all its processes, /proc; what load does not inflate): median ${median(browserCpu).toFixed(0)} ms, slowest ${max(browserCpu).toFixed(0)} ms`,
    );
  console.log(`dashboard: the page's main thread was busy ${median(busy).toFixed(0)} ms (median) of that time (parse, modules, JSON, render)`);
  console.log(
    `dashboard: a search narrowing ${RESOURCES} rows to 1: median ${median(search).toFixed(0)} ms; a jump to the last row: median ${median(scroll).toFixed(0)} ms`,
  );
} finally {
  await browser.close();
  await server.close();
}
