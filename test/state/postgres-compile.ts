// Test helper: compiles the PostgreSQL state backend and the recorder once, for child processes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
let compiled: string | undefined;

/**
 * Directory holding engine/state/*.js compiled from the current sources. It lies under the
 * repository's node_modules so that the compiled code resolves the 'pg' package.
 */
export function compiledPostgresDir(): string {
  if (compiled) return compiled;
  const cache = join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const out = mkdtempSync(join(cache, 'moor-pg-state-'));
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const r = spawnSync(
    process.execPath,
    [
      tsc,
      '--outDir',
      out,
      '--rootDir',
      join(root, 'src'),
      '--module',
      'NodeNext',
      '--moduleResolution',
      'NodeNext',
      '--target',
      'ES2022',
      '--strict',
      '--skipLibCheck',
      '--esModuleInterop',
      '--types',
      'node',
      join(root, 'src/engine/state/postgres-backend.ts'),
      join(root, 'src/engine/state/recorder.ts'),
    ],
    { cwd: root, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`compiling the state modules failed:\n${r.stdout}${r.stderr}`);
  compiled = out;
  return out;
}
