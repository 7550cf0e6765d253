// Start-up of the built CLI: --help, --version, validate of one file, validate and plan of the examples (plan against
// the built-in local cloud, in a temporary folder), and validate of 60 damaged manifests (the
// YAML parser's cold path, which test/validate/fuzz-damaged.test.ts takes). Median and best of
// several runs, wall time, and the median CPU time (user + system, bench/cpu-time.cjs), which a
// loaded machine inflates less.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/moor.js');
const CPU_TIME = join(ROOT, 'bench/cpu-time.cjs');
const RUNS = Number(process.env.MOOR_BENCH_RUNS ?? 9);

const work = mkdtempSync(join(tmpdir(), 'moor-bench-startup-'));
cpSync(join(ROOT, 'examples/manifests'), join(work, 'manifests'), { recursive: true });
const env = { ...process.env, NO_COLOR: '1', MOOR_PROVISIONING_MS: '0' };
for (const key of Object.keys(env)) if (key.startsWith('MOOR_') && key !== 'MOOR_PROVISIONING_MS') delete env[key];

const { seededRandom } = await import(new URL('../dist/core/seeded-random.js', import.meta.url).href);

/** 60 manifests of the examples, each with a few pieces of YAML damage at seeded places: the same files every run. */
function writeDamaged(dir) {
  const bases = readdirSync(join(ROOT, 'examples/manifests'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => readFileSync(join(ROOT, 'examples/manifests', f), 'utf8'));
  const pieces = ['!', '&a ', '*a', '|', '[', '{', '"', ': ', '- ', '\n', '  ', '\t', '---\n', '${', 'k'.repeat(1100) + ': 1', '&s\n  self: *s\n'];
  const next = seededRandom(1313);
  const rand = (n) => Math.floor(next() * n);
  mkdirSync(dir);
  for (let n = 0; n < 60; n++) {
    let text = bases[rand(bases.length)];
    for (let k = 0; k <= rand(3); k++) {
      const at = rand(text.length + 1);
      text = text.slice(0, at) + pieces[rand(pieces.length)] + text.slice(at + rand(3));
    }
    writeFileSync(join(dir, `case-${String(n).padStart(2, '0')}.yaml`), text);
  }
}
writeDamaged(join(work, 'damaged'));
// One manifest of one kind, as most runs of moor in a pipeline or a test read: what a start costs beyond --version.
mkdirSync(join(work, 'one'));
cpSync(join(ROOT, 'examples/manifests/auth-contexts.yaml'), join(work, 'one/auth-contexts.yaml'));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `ok`: the exit codes the command may end with (validate of damaged manifests exits 1). */
function time(args, ok = [0, 2]) {
  const times = [];
  const cpu = [];
  const cpuFile = join(work, 'cpu-ms');
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['--require', CPU_TIME, ...args], { cwd: work, env: { ...env, BENCH_CPU_FILE: cpuFile }, stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (!ok.includes(r.status)) throw new Error(`${args.join(' ')} exited ${r.status}`);
    cpu.push(Number(readFileSync(cpuFile, 'utf8')));
  }
  return { median: median(times), best: Math.min(...times), cpu: median(cpu) };
}

// The examples' refresh job is protected: a plain plan refuses it (exit 1), so the plan names it, as a reviewed pipeline would.
const PLAN = [BIN, 'plan', 'manifests', '--allow-destructive', 'DatabaseRefresh/uat-from-prod'];
const cases = [
  ['node -e 0 (baseline)', ['-e', '0']],
  ['moor --help', [BIN, '--help']],
  ['moor --version', [BIN, '--version']],
  ['moor validate one file', [BIN, 'validate', 'one']],
  ['moor validate examples', [BIN, 'validate', 'manifests']],
  ['moor plan examples', PLAN],
  ['moor validate 60 damaged', [BIN, 'validate', 'damaged'], [1]],
];
/**
 * bin/built-cli.js lets a function run ~1 MB of bytecode before V8 optimizes it; a node flag of the user's wins,
 * so the same validate with V8's own budget (132 KB) shows, side by side in this run, what that setting saves.
 */
const DEFAULT_BUDGET = ['--interrupt-budget=135168', BIN, 'validate', 'damaged'];
try {
  execFileSync(process.execPath, PLAN, { cwd: work, env, stdio: 'ignore' }); // local cloud data made once
  console.log(`start-up (over ${RUNS} runs; load average ${loadavg()[0].toFixed(1)})`);
  const report = (name, { median, best, cpu }) =>
    console.log(
      `  ${name.padEnd(24)} median ${median.toFixed(0).padStart(5)} ms   best ${best.toFixed(0).padStart(5)} ms   CPU ${cpu.toFixed(0).padStart(5)} ms`,
    );
  let damaged;
  for (const [name, args, ok] of cases) {
    const result = time(args, ok);
    if (args.includes('damaged')) damaged = result;
    report(name, result);
  }
  const withDefault = time(DEFAULT_BUDGET, [1]);
  report("  ...with V8's budget", withDefault);
  console.log(`  moor's interrupt budget: validate of 60 damaged takes ${(damaged.cpu / withDefault.cpu).toFixed(2)}x the CPU of V8's default`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
