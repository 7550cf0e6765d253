// The floors of the house, read from the import lines: src/core is the ground floor and imports
// nothing above it; the engine knows no kind, no provider and no local cloud; providers know no
// manifest and no local cloud; kinds know no engine; the local cloud stands on the ground floor
// only; src/session, the run's composition root, joins the engine and the providers.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/** Relative specifiers of every static import, `export … from` and dynamic `import()` in a file. */
export function importSpecifiers(text: string): string[] {
  const found: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm;
  for (const m of text.matchAll(pattern)) found.push(m[2]);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The top folder under src/ a file or an import target sits in: core, engine, providers, … */
function floorOf(absPath: string): string {
  return relative(SRC, absPath).split(/[\\/]/)[0];
}

interface ImportEdge {
  readonly file: string;
  readonly from: string;
  readonly to: string;
  readonly specifier: string;
  readonly isTest: boolean;
}

function importEdges(): ImportEdge[] {
  return sourceFiles(SRC).flatMap((abs) =>
    importSpecifiers(readFileSync(abs, 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((specifier) => {
        const target = resolve(dirname(abs), specifier);
        const to = target.startsWith(SRC + '/') ? floorOf(target) : `outside src (${relative(ROOT, target)})`;
        return { file: relative(ROOT, abs), from: floorOf(abs), to, specifier, isTest: abs.endsWith('.test.ts') };
      }),
  );
}

/** Which floors each floor may not import, its tests included (tests of the engine with the built-in kinds live in test/engine). */
const FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  engine: ['resources', 'localcloud', 'cli', 'notify', 'policy', 'session'],
  // Policies read manifests and plans through the engine's types; they call no service and name no kind.
  policy: ['resources', 'localcloud', 'cli', 'notify', 'providers'],
  providers: ['engine', 'resources', 'localcloud', 'cli', 'notify', 'session'],
  // The composition root builds the engine's session from the providers; the edge (cli) hands in kinds, policies and the local cloud.
  session: ['resources', 'localcloud', 'cli', 'notify', 'policy', 'watch'],
  resources: ['engine', 'localcloud', 'cli', 'notify'],
  localcloud: ['engine', 'resources', 'providers', 'cli', 'notify'],
};

describe('architecture: the import lines keep the floors apart', () => {
  const edges = importEdges();

  test('the import reader sees static, re-exported and dynamic imports', () => {
    const text =
      "import a from './a.js';\nimport type { B } from '../b.js';\nexport { c } from './c.js';\nconst d = await import('../d.js');\nimport './e.js';";
    expect(importSpecifiers(text)).toEqual(['./a.js', '../b.js', './c.js', '../d.js', './e.js']);
    expect(edges.length).toBeGreaterThan(100);
  });

  test('nothing in src/core imports from outside src/core (only node: and npm packages)', () => {
    const upward = edges.filter((e) => e.from === 'core' && e.to !== 'core');
    expect(upward.map((e) => `${e.file} -> ${e.specifier}`)).toEqual([]);
  });

  test.each(Object.entries(FORBIDDEN))('src/%s imports none of its forbidden floors', (floor, forbidden) => {
    const wrong = edges.filter((e) => e.from === floor && forbidden.includes(e.to));
    expect(wrong.map((e) => `${e.file} -> ${e.specifier}`)).toEqual([]);
  });

  test('nothing under src/engine imports src/providers (src/session builds the clients and the request scheduler)', () => {
    // Tests may build a session's real scheduler.
    const wrong = edges.filter((e) => e.from === 'engine' && e.to === 'providers' && !e.isTest);
    expect(wrong.map((e) => `${e.file} -> ${e.specifier}`)).toEqual([]);
  });

  test("a kind reaches no other kind's folder (shared code sits in a *-shared folder)", () => {
    const kindFolder = (path: string) => path.split('/')[2];
    const across = sourceFiles(join(SRC, 'resources')).flatMap((abs) =>
      importSpecifiers(readFileSync(abs, 'utf8'))
        .filter((s) => s.startsWith('.'))
        .map((s) => ({ from: relative(ROOT, abs), to: relative(ROOT, resolve(dirname(abs), s)) }))
        .filter((e) => e.to.startsWith('src/resources/') && e.to.split('/').length > 3)
        .filter(
          (e) =>
            kindFolder(e.from) !== kindFolder(e.to) && !kindFolder(e.to).endsWith('-shared') && !e.from.endsWith('registry.ts') && !e.from.endsWith('.test.ts'),
        ),
    );
    expect(across.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  test("only the edge (cli) opens sessions: the composition root is no one else's to call", () => {
    const users = edges.filter((e) => e.to === 'session' && e.from !== 'session' && !e.isTest).map((e) => e.from);
    expect([...new Set(users)].sort()).toEqual(['cli']);
  });

  test('only the edge (cli) and the registry name the built-in kinds', () => {
    const users = edges.filter((e) => e.specifier.endsWith('resources/registry.js') && !e.isTest).map((e) => e.from);
    expect([...new Set(users)].sort()).toEqual(['cli']);
  });
});

/**
 * The floors in layers, lowest first: a file imports only its own floor and floors of lower layers
 * (its tests may reach higher, to compose what they prove). Floors of one layer know nothing of
 * each other.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['core'],
  ['engine', 'providers', 'localcloud'],
  ['resources', 'policy', 'discover', 'session', 'notify', 'watch'],
  ['cli'],
  // The package's entry (moor as a library) opens the session as the CLI does, through cli/run-session.ts.
  ['index.ts'],
];

function layerOf(floor: string): number {
  return LAYERS.findIndex((layer) => layer.includes(floor));
}

/** Every file under src/ and test/ with the files it imports (type-only and dynamic imports included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const abs of [...sourceFiles(SRC), ...sourceFiles(join(ROOT, 'test'))]) {
    const targets = importSpecifiers(readFileSync(abs, 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((s) => relative(ROOT, resolve(dirname(abs), s)).replace(/\.js$/, '.ts'));
    graph.set(relative(ROOT, abs), targets);
  }
  return graph;
}

/** The circles of a graph: its strongly connected components of more than one file, or of one file importing itself (Tarjan). */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

describe('architecture: no circles, no import from a lower layer to a higher one', () => {
  test('the circle finder sees a two-file circle, a longer one and a file importing itself, and no circle in a chain', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts']],
      ['c.ts', ['d.ts']],
      ['d.ts', ['e.ts']],
      ['e.ts', ['c.ts', 'f.ts']],
      ['f.ts', []],
      ['g.ts', ['g.ts']],
      ['h.ts', ['i.ts']],
      ['i.ts', ['f.ts']],
    ]);
    expect(
      importCircles(graph)
        .map((c) => c.join(' '))
        .sort(),
    ).toEqual(['a.ts b.ts', 'c.ts d.ts e.ts', 'g.ts']);
  });

  test('no file imports, through any chain of imports (type-only ones included), a file that imports it', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(500);
    expect(importCircles(graph).map((c) => c.join(' <-> '))).toEqual([]);
  });

  test('every floor under src/ sits on a layer', () => {
    const floors = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory() || e.name.endsWith('.ts'))
      .map((e) => e.name);
    expect(floors.filter((floor) => layerOf(floor) < 0)).toEqual([]);
  });

  test('no file under src/ imports a floor of its own layer or a higher one (tests may compose higher floors)', () => {
    const upward = importEdges().filter((e) => !e.isTest && e.from !== e.to && !(layerOf(e.to) >= 0 && layerOf(e.to) < layerOf(e.from)));
    expect(upward.map((e) => `${e.file} -> ${e.specifier}`)).toEqual([]);
  });
});

describe("architecture: only the bin's io host touches the process", () => {
  /** The process's streams, environment, folder, arguments, exit and signals: what a run gets from its io host. */
  const PROCESS_GLOBAL = /\bprocess\.(stdout|stderr|stdin|env|cwd|chdir|argv|exit|exitCode|on|once|off|addListener|removeListener)\b/;
  /** The bin's host; the local cloud (a server of its own, logging its own failures); who holds a lock when the OS has no passwd entry. */
  const ALLOWED = ['src/cli/process-io.ts', 'src/engine/state/file-lock.ts', 'src/engine/state/postgres-lock.ts'];

  test("no source file but the allowed ones reads the process's streams, environment, folder or signals", () => {
    const touching = sourceFiles(SRC)
      .map((abs) => relative(ROOT, abs))
      .filter((file) => !file.endsWith('.test.ts') && !file.startsWith('src/localcloud/') && !ALLOWED.includes(file))
      .filter((file) =>
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .some((line) => PROCESS_GLOBAL.test(line) && !/^\s*(\/\/|\*)/.test(line)),
      );
    expect(touching).toEqual([]);
  });

  test('the rule sees a write to stdout, a read of the environment and a signal listener', () => {
    for (const line of ["process.stdout.write('x')", 'const e = process.env.HOME;', "process.on('SIGINT', f)", 'process.cwd()'])
      expect(PROCESS_GLOBAL.test(line)).toBe(true);
    expect(PROCESS_GLOBAL.test('process.pid')).toBe(false);
  });
});
