// moor as a package: `npm pack` of the built package, installed into a scratch project (offline: its
// dependencies linked from this repository's node_modules), imports as typed functions — the example
// of docs/library.md type-checks with tsc against the installed declarations and runs against the
// built-in local cloud, planning, applying and planning again; docs/pipelines.md's install of the
// tarball into an infrastructure repository, then its `npx moor plan --stack dev`, runs from the page.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SourceFile } from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBin, runRecordingModules } from '../cli/loaded-modules.js';
import { keepCompiledTypeScript, ts } from '../support/typescript.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MANIFEST = 'apiVersion: moor/v1\nkind: AuthContext\nmetadata:\n  name: c1\nspec:\n  displayName: Require trusted device\n  isAvailable: true\n';

/** The first ```ts block of docs/library.md: the example the page shows. */
function documentedExample(): string {
  const page = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(page);
  if (!block) throw new Error('docs/library.md has no ```ts example');
  return block[1];
}

/** The sh block of docs/pipelines.md that installs a packed moor into an infrastructure repository (comments kept). */
function documentedInstall(): string[] {
  const page = readFileSync(join(ROOT, 'docs/pipelines.md'), 'utf8');
  const section = page.slice(page.indexOf('### moor from your own infrastructure repository'));
  return /```sh\n([\s\S]*?)```/
    .exec(section)![1]
    .split('\n')
    .filter((l) => l.trim() !== '');
}

/** A hard link at `target` to `source`, or a copy where the two are on different file systems. */
function linkOrCopy(source: string, target: string): void {
  try {
    linkSync(source, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    copyFileSync(source, target);
  }
}

/** `from`'s files and folders hard-linked under `to` (symbolic links as they are), but for the top-level names in `skip`. */
function linkTree(from: string, to: string, skip: ReadonlySet<string> = new Set()): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const [source, target] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else linkOrCopy(source, target);
  }
}

/**
 * The tarball `npm pack` makes of the built package (no scripts: dist/ is built by the tests' global setup).
 * npm packs a hard-linked copy of the repository without node_modules/ (or .git): the same bytes, as moor
 * bundles no dependency, but npm pack reads every package of a node_modules/ first (its hidden lockfile is
 * out of date once vitest has written its caches there), a third of the pack's CPU.
 */
function pack(into: string): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  if (manifest.bundleDependencies ?? manifest.bundledDependencies) throw new Error('moor bundles dependencies now: pack the repository itself');
  const repository = join(into, 'repository');
  linkTree(ROOT, repository, new Set(['node_modules', '.git']));
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', into], {
    cwd: repository,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [packed] = JSON.parse(out) as { filename: string }[];
  return join(into, packed.filename);
}

/** The tarball's package folder unpacked into `into` (as npm install unpacks it into node_modules/moor). */
function unpack(tarball: string, into: string): string {
  mkdirSync(into, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', into, '--strip-components=1']);
  return into;
}

/**
 * A scratch project with the unpacked tarball as its node_modules/moor (hard-linked: the tarball is unpacked
 * once for the file, not once per project) and moor's dependencies (and tsc's Node types) linked from this repository.
 */
function scratchProject(unpacked: string, dir: string): void {
  const modules = join(dir, 'node_modules');
  linkTree(unpacked, join(modules, 'moor'));
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  mkdirSync(join(modules, '@types'), { recursive: true });
  for (const name of [...Object.keys(pkg.dependencies), '@types/node']) {
    mkdirSync(join(modules, name, '..'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name), 'dir');
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      // A Node program's libraries: the language's and Node's (@types/node), not the DOM (a third of what tsc parses).
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: true,
        types: ['node'],
        outDir: 'out',
      },
      include: ['example.ts'],
    }),
  );
  writeFileSync(join(dir, 'example.ts'), documentedExample());
  mkdirSync(join(dir, 'manifests'));
  writeFileSync(join(dir, 'manifests', 'auth.yaml'), MANIFEST);
}

/** The files both type checks read from this repository (TypeScript's libs, the Node types, moor's dependencies), parsed once. */
const parsedOnce = new Map<string, SourceFile>();

/**
 * What `tsc -p project` does (this repository's TypeScript), in this process: the project's tsconfig.json,
 * its program, its emit (out/), its messages as tsc prints them (empty when it type-checks). One compiler for
 * both checks: parsing the libs and the Node types is most of a check, and a second tsc process parsed them again.
 * Files under `scratch` (the installed package, the example) are read and parsed anew for each project.
 */
function tsc(project: string, scratch: string): string {
  const config = ts.getParsedCommandLineOfConfigFile(join(project, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error(`${project}/tsconfig.json did not parse`);
  const host = ts.createCompilerHost(config.options);
  // tsc's own setting: JSDoc in .ts and .d.ts files is parsed only where it can make a type error.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, onError, shouldCreate) => {
    if (fileName.startsWith(scratch)) return read(fileName, version, onError, shouldCreate);
    const key = `${fileName}\0${JSON.stringify(typeof version === 'object' ? [version.languageVersion, version.impliedNodeFormat] : version)}`;
    let file = parsedOnce.get(key);
    if (!file) {
      file = read(fileName, version, onError, shouldCreate);
      if (file) parsedOnce.set(key, file);
    }
    return file;
  };
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
  });
  const emitted = program.emit();
  const diagnostics = ts.sortAndDeduplicateDiagnostics([...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]);
  keepCompiledTypeScript();
  return ts.formatDiagnostics(diagnostics, { getCurrentDirectory: () => project, getCanonicalFileName: (f) => f, getNewLine: () => '\n' });
}

/** Packing and tsc take tens of seconds on a loaded machine: a wait for them to finish, not a timing. */
const SLOW = 600_000;

describe('moor as a package', () => {
  let dir: string;
  let tarball: string;
  let unpacked: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'moor-package-'));
    tarball = pack(dir);
    unpacked = unpack(tarball, join(dir, 'unpacked'));
  }, SLOW);

  it(
    'installs from its tarball, type-checks the documented example against its declarations, and runs it against the local cloud',
    () => {
      const project = join(dir, 'project');
      scratchProject(unpacked, project);
      const installed = JSON.parse(readFileSync(join(project, 'node_modules/moor/package.json'), 'utf8')) as { exports: Record<string, { types: string }> };
      expect(installed.exports['.'].types).toBe('./dist/index.d.ts');
      expect(readFileSync(join(project, 'node_modules/moor/dist/index.d.ts'), 'utf8')).toContain('export declare function planFolder');
      // dist/'s source maps name ../src/, which the package does not carry: they stay out of it too.
      expect(existsSync(join(project, 'node_modules/moor/dist/index.js.map'))).toBe(false);
      // tsc from this repository, against the installed package's declarations: a wrong type fails here.
      expect(tsc(project, dir)).toBe('');
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MOOR_')));
      const stdout = execFileSync(process.execPath, [join(project, 'out/example.js')], { cwd: project, env, encoding: 'utf8' });
      expect(stdout.split('\n')).toEqual(['create AuthContext/c1', 'AuthContext/c1: done', 'in sync: true', '']);
    },
    SLOW,
  );

  it(
    "docs/pipelines.md's install: npm pack's tarball by the page's name carries dist/ and builds nothing at install; npx moor plan --stack runs the installed moor",
    () => {
      const [, pack, , install, plan] = documentedInstall();
      // The page's tarball name (in the pack line's comment and the install line) is what npm pack makes of this version.
      const named = /npm pack\s+# (\S+\.tgz)$/.exec(pack)![1];
      expect(named).toBe(tarball.split('/').at(-1));
      expect(install).toBe(`npm install --save-dev ../moor/${named}`);
      // npm pack builds dist/ first (prepare); an install of the tarball runs no script of moor's.
      const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
      expect(pkg.scripts.prepare).toBe('node scripts/prepare.mjs');
      const project = join(dir, 'infrastructure');
      scratchProject(unpacked, project);
      const installed = JSON.parse(readFileSync(join(project, 'node_modules/moor/package.json'), 'utf8')) as {
        scripts?: Record<string, string>;
        bin: Record<string, string>;
      };
      for (const hook of ['preinstall', 'install', 'postinstall']) expect(installed.scripts?.[hook]).toBeUndefined();
      // What npm install links for the package's bin; the repository holds the stacks example's config and manifests.
      mkdirSync(join(project, 'node_modules/.bin'));
      symlinkSync(join('..', 'moor', installed.bin.moor), join(project, 'node_modules/.bin/moor'));
      cpSync(join(ROOT, 'examples/stacks'), project, { recursive: true });
      expect(plan).toBe('npx moor plan --stack dev');
      const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MOOR_'))), npm_config_offline: 'true', NO_COLOR: '1' };
      const stdout = execFileSync('sh', ['-c', plan], { cwd: project, env, encoding: 'utf8' });
      expect(stdout).toMatch(/stack dev/);
      expect(stdout).toMatch(/Plan: [1-9]\d* to create/);
    },
    SLOW,
  );

  it(
    'runs its command line from the bundle it carries (dist/bundle/), with no module of dist/cli/',
    async () => {
      const project = join(dir, 'cli');
      scratchProject(unpacked, project);
      const installed = join(project, 'node_modules/moor');
      expect(existsSync(join(installed, 'dist/bundle/moor.js'))).toBe(true);
      expect(existsSync(join(installed, 'dist/cli/main.js'))).toBe(true);
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MOOR_')));
      const r = await runRecordingModules(join(installed, 'bin/moor.js'), ['validate', 'manifests'], project, env);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('ok: 1 manifest in 1 file is valid\n');
      expect(r.loaded.some((url) => url.includes('/node_modules/moor/dist/bundle/'))).toBe(true);
      expect(r.loaded.filter((url) => url.includes('/dist/cli/'))).toEqual([]);
      const version = await runBin(join(installed, 'bin/moor.js'), ['--version'], project, env);
      expect(version.stdout).toMatch(/^moor \d+\.\d+\.\d+\n/);
    },
    SLOW,
  );

  it(
    "reports a type error in a caller: the declarations are the functions' real types",
    () => {
      const project = join(dir, 'typo');
      scratchProject(unpacked, project);
      writeFileSync(
        join(project, 'example.ts'),
        "import { planFolder } from 'moor';\nconst report = await planFolder('manifests', { cwd: '.', env: {} });\nconst wrong: number = report.changes[0].address;\nconsole.log(wrong);\n",
      );
      expect(tsc(project, dir)).toMatch(/example\.ts\(3,7\): error TS2322: Type 'string' is not assignable to type 'number'/);
    },
    SLOW,
  );
});
