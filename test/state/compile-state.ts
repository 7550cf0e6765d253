// Test helper: compiles the state modules to plain JS once, so child processes can load them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
let compiled: string | undefined;

/** Directory holding engine/state/*.js (file backend, recorder) compiled from the current sources. */
export function compiledStateDir(): string {
  if (compiled) return compiled;
  const out = mkdtempSync(join(tmpdir(), 'moor-state-js-'));
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
      '--types',
      'node',
      join(root, 'src/engine/state/file-backend.ts'),
      join(root, 'src/engine/state/recorder.ts'),
    ],
    { cwd: root, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`compiling the state modules failed:\n${r.stdout}${r.stderr}`);
  compiled = out;
  return out;
}

export const fixture = (name: string): string => join(import.meta.dirname, 'fixtures', name);
