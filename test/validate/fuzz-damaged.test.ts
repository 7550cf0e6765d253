// Fuzz: 360 damaged manifests (seeded, so every run is the same) through the built CLI's validate
// and graph, in batches under a time guard: no crash, no hang, every diagnostic has file:line:col.
//
// One `moor validate` reads every batch (and one `moor graph` the first two): most of a run is the
// YAML parser's code warming up, which a process per batch paid again each time (six validates, 9.5
// CPU-s; one, 4). Each batch's test still judges its own files' diagnostics, and a hang in any batch
// is still killed by the guard and fails every batch's test.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { seededRandom } from '../../src/core/seeded-random.js';

const run = promisify(execFile);
const CASES = 360;
const BATCH = 60;
/** Far above what a process over one or two batches takes even on a loaded machine; a hang is killed here and fails the test. */
const GUARD_MS = 45_000;
/** The one validate over all six batches: 22 s beside two CPU hogs on a loaded 2-core machine. */
const ALL_BATCHES_GUARD_MS = 90_000;

const BASES = [
  'examples/manifests/container-groups.yaml',
  'test/fixtures/manifests/every-field/others.yaml',
  'test/fixtures/manifests/every-field/container-group.yaml',
].map((f) => readFileSync(f, 'utf8'));

/** Damage that hostile or careless input brings: YAML syntax, odd characters, aliases (recursive too), placeholders, bytes. */
const PIECES = [
  '!',
  '!!binary ',
  '&a ',
  '*a',
  '&s\n  self: *s\n',
  '|',
  '>',
  '%',
  '@',
  '`',
  '#',
  '"',
  "'",
  '\\',
  '[',
  ']',
  '{',
  '}',
  ',',
  '?',
  ':',
  '- ',
  ': ',
  '\n',
  '  ',
  '\t',
  '---\n',
  '...\n',
  '~',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\r',
  '\x1b',
  'é',
  '\ud800',
  '${file:../../etc/passwd}',
  '${env:}',
  '${ref:X/y#/z}',
  '${',
  '$&',
  'true',
  '.nan',
  '0x',
  '1e999',
  '<<: *a\n',
  'k'.repeat(1100) + ': 1',
  '[[[[[[[[[[',
  '{a: {b: {c: ',
  '"\\u00"',
  "'it''s",
  'null',
  '-1',
  '&a [*a]',
];

/** Whole numbers below n from a seed: the same corpus on every run. */
function prng(seed: number): (n: number) => number {
  const next = seededRandom(seed);
  return (n) => Math.floor(next() * n);
}

function damage(text: string, rand: (n: number) => number): string {
  let out = text;
  for (let k = 0; k <= rand(4); k++) {
    const lines = out.split('\n');
    const i = rand(Math.max(1, lines.length - 1));
    const at = rand(out.length + 1);
    switch (rand(8)) {
      case 7:
        out = recursiveAlias(lines, rand);
        break;
      case 0:
      case 1:
      case 2:
        out = out.slice(0, at) + PIECES[rand(PIECES.length)] + out.slice(at + rand(3));
        break;
      case 3:
        lines[i] = ' '.repeat(rand(7)) + lines[i].trimStart();
        out = lines.join('\n');
        break;
      case 4:
        lines.splice(i, 1 + rand(3));
        out = lines.join('\n');
        break;
      case 5:
        lines.splice(i, 0, lines[rand(lines.length)]);
        out = lines.join('\n');
        break;
      default:
        out = out.slice(0, at);
        break;
    }
  }
  return out;
}

/** Turns a mapping or a value into one that contains itself (`key: &r` + `  loop: *r`, or `key: &r [*r]`). */
function recursiveAlias(lines: string[], rand: (n: number) => number): string {
  const opening = lines.flatMap((l, i) => (/^\s*[\w-]+:\s*$/.test(l) ? [i] : []));
  const valued = lines.flatMap((l, i) => (/^\s*[\w-]+: \S/.test(l) ? [i] : []));
  if (opening.length > 0 && rand(2) === 0) {
    const i = opening[rand(opening.length)];
    const indent = /^\s*/.exec(lines[i])![0];
    lines.splice(i, 1, `${lines[i].trimEnd()} &r`, `${indent}  loop: *r`);
  } else if (valued.length > 0) {
    const i = valued[rand(valued.length)];
    lines[i] = lines[i].replace(/: .*$/, ': &r [*r]');
  }
  return lines.join('\n');
}

const BIN = resolve('bin/moor.js');

async function moor(args: string[], cwd = process.cwd(), guardMs = GUARD_MS): Promise<{ code: number; stdout: string; stderr: string; killed: boolean }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      timeout: guardMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr, killed: false };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string; killed?: boolean };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, killed: e.killed === true };
  }
}

/** Writes the batches of damaged files; the same seed gives the same files. */
function writeBatches(): string[] {
  const rand = prng(1313);
  const dirs: string[] = [];
  for (let n = 0; n < CASES; n++) {
    if (n % BATCH === 0) dirs.push(mkdtempSync(join(tmpdir(), 'moor-fuzz-')));
    writeFileSync(join(dirs[dirs.length - 1], `case-${String(n).padStart(3, '0')}.yaml`), damage(BASES[rand(BASES.length)], rand));
  }
  return dirs;
}

interface Row {
  file: string | null;
  line: number | null;
  col: number | null;
  message: string;
}

/** Whether a path the CLI printed (relative to this process's folder) names a file of `dir`. */
function isIn(file: unknown, dir: string): boolean {
  return typeof file === 'string' && resolve(file).startsWith(dir + sep);
}

/** The stderr lines of a run that name a file of `dir`, or of none of `dirs` (so every line is judged by some batch). */
function linesOf(stderr: string, dir: string, dirs: readonly string[]): string[] {
  const fileOf = (line: string) => /^(.*?\.yaml):\d+:\d+: /.exec(line)?.[1];
  return stderr
    .trimEnd()
    .split('\n')
    .filter((l) => l !== '')
    .filter((l) => isIn(fileOf(l), dir) || !dirs.some((d) => isIn(fileOf(l), d)));
}

describe('fuzz: damaged manifests', () => {
  const batches = writeBatches();
  afterAll(() => batches.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  let validated: ReturnType<typeof moor> | undefined;
  let graphed: ReturnType<typeof moor> | undefined;
  const graphBatches = batches.slice(0, 2);

  test.each(batches.map((dir, i) => [i + 1, dir]))(
    'batch %i: validate exits 0 or 1 in bounded time, every diagnostic located',
    async (_n, dir) => {
      const r = await (validated ??= moor(['validate', ...batches, '--output', 'json'], process.cwd(), ALL_BATCHES_GUARD_MS));
      expect(r.killed, 'validate hung').toBe(false);
      expect([0, 1]).toContain(r.code);
      expect(r.stderr).not.toMatch(/\n\s+at |TypeError|RangeError|Maximum call stack/);
      const all = JSON.parse(r.stdout) as Row[];
      const rows = all.filter((d) => isIn(d.file, dir));
      expect(rows.length).toBeGreaterThan(0);
      // A row of no batch (no file, or another one) is judged here too: it can only be unlocated.
      const stray = all.filter((d) => !batches.some((b) => isIn(d.file, b)));
      const unlocated = [...rows, ...stray].filter(
        (d) => typeof d.file !== 'string' || !d.file.includes('case-') || !(Number(d.line) >= 1) || !(Number(d.col) >= 1),
      );
      expect(unlocated).toEqual([]);
    },
    ALL_BATCHES_GUARD_MS + 10_000,
  );

  test.each(graphBatches.map((dir, i) => [i + 1, dir]))('batch %i: graph prints what it can and exits in bounded time', async (_n, dir) => {
    const r = await (graphed ??= moor(['graph', ...graphBatches]));
    expect(r.killed, 'graph hung').toBe(false);
    expect([0, 1]).toContain(r.code);
    expect(r.stdout).toMatch(/^flowchart LR\n/);
    expect(r.stderr).not.toMatch(/\n\s+at |TypeError|RangeError|Maximum call stack/);
    for (const line of linesOf(r.stderr, dir, graphBatches)) expect(line).toMatch(/case-\d{3}\.yaml:\d+:\d+: (error|warning): /);
  });

  test('batch 1: plan refuses the set in bounded time, every diagnostic located', async () => {
    // Run in the batch's folder: plan starts the local cloud, which keeps its data in ./.moor.
    const r = await moor(['plan', '.'], batches[0]);
    expect(r.killed, 'plan hung').toBe(false);
    expect(r.code).toBe(1);
    const lines = (r.stdout + r.stderr)
      .trimEnd()
      .split('\n')
      .filter((l) => /: (error|warning): /.test(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/case-\d{3}\.yaml:\d+:\d+: (error|warning): /);
    expect(r.stderr).not.toMatch(/\n\s+at |TypeError|RangeError|Maximum call stack/);
  });
});
