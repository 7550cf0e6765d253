// Which test files start processes (the CLI, a local cloud, a shell, a browser) or change the working
// directory: they are most of the suite's time, so on a fresh clone, with no durations from a last run,
// they start first (test/slowest-first-sequencer.ts). A file's test helpers count as the file: a helper
// that spawns the CLI makes its callers spawn.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** What makes a module start a process (playwright-core starts a browser). */
const STARTS_A_PROCESS = /node:child_process|node-pty|playwright-core|process\.chdir/;
/** Relative imports of a module (its helpers). */
const RELATIVE_IMPORT = /\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The test files under `dirs` (relative to `root`), in forward-slash form as vitest globs them. */
function testFiles(root: string, dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
      .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/')),
  );
}

/** Whether a test module or a helper it imports from the test tree needs a process of its own. */
function startsProcesses(file: string, testTree: string, seen: Set<string>): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (STARTS_A_PROCESS.test(text)) return true;
  return [...text.matchAll(RELATIVE_IMPORT)]
    .map((m) => resolve(dirname(file), m[1].replace(/\.js$/, '.ts')))
    .filter((helper) => helper.startsWith(testTree) && existsSync(helper))
    .some((helper) => startsProcesses(helper, testTree, seen));
}

/** The test files that start processes or chdir, of those under `dirs`. */
export function filesStartingProcesses(root: string, dirs: readonly string[]): string[] {
  const testTree = join(root, 'test');
  return testFiles(root, dirs)
    .filter((file) => startsProcesses(join(root, file), testTree, new Set()))
    .sort();
}
