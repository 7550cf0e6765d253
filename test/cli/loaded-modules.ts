// Runs a moor command line (a bin/moor.js) in a child process, with or without a module hook that writes
// down every file the process loads: which build a start of moor ran (the bundle or dist/cli/).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.MOOR_TEST_LOADED, url + '\\n');
  return next(url, context);
}
`;

export interface BinRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RecordedRun extends BinRun {
  /** The file: URLs of the modules the process loaded, in order. */
  readonly loaded: readonly string[];
}

/** Runs `node [NODE_ARGS] BIN ARGS` in `cwd` with the environment `env` (and NO_COLOR). */
function runNode(nodeArgs: readonly string[], bin: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<BinRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...nodeArgs, bin, ...args], { cwd, encoding: 'utf8', env: { ...env, NO_COLOR: '1' } }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs `node BIN ARGS` in `cwd` with the environment `env` (and NO_COLOR), as a shell would start the
 * command, without the module hook: the hook's thread sees every module the process loads (0.1 CPU-s
 * more for a start from the bundle, 0.5 more for one from dist/cli/'s ~400 modules).
 */
export function runBin(bin: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<BinRun> {
  return runNode([], bin, args, cwd, env);
}

/** Runs `node BIN ARGS` in `cwd` with the environment `env` (and NO_COLOR), recording the modules it loads. */
export async function runRecordingModules(bin: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<RecordedRun> {
  const dir = mkdtempSync(join(tmpdir(), 'moor-loaded-'));
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  writeFileSync(join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
  const list = join(dir, 'loaded.txt');
  writeFileSync(list, '');
  const run = await runNode(['--import', join(dir, 'register.mjs')], bin, args, cwd, { ...env, MOOR_TEST_LOADED: list });
  return { ...run, loaded: readFileSync(list, 'utf8').split('\n').filter(Boolean) };
}
