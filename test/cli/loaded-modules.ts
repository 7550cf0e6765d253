// Runs a moor command line (a bin/moor.js) in a child process with a module hook that writes down
// every file the process loads: which build a start of moor ran (the bundle or dist/cli/).
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

export interface RecordedRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The file: URLs of the modules the process loaded, in order. */
  readonly loaded: readonly string[];
}

/** Runs `node BIN ARGS` in `cwd` with the environment `env` (and NO_COLOR), recording the modules it loads. */
export function runRecordingModules(bin: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<RecordedRun> {
  const dir = mkdtempSync(join(tmpdir(), 'moor-loaded-'));
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  writeFileSync(join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
  const list = join(dir, 'loaded.txt');
  writeFileSync(list, '');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', join(dir, 'register.mjs'), bin, ...args],
      { cwd, encoding: 'utf8', env: { ...env, NO_COLOR: '1', MOOR_TEST_LOADED: list } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr, loaded: readFileSync(list, 'utf8').split('\n').filter(Boolean) });
      },
    );
  });
}
