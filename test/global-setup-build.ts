// Vitest global setup: the end-to-end tests run the built CLI (bin/moor.js → dist/). `npm test`
// builds first; a bare `npx vitest run` after an edit would test a stale build, so rebuild here
// once, before any test starts (never from inside a test, where workers spawn the CLI meanwhile).
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/** The newest modification time of the files under `dir` that `keep` accepts (0 when none). */
function newest(dir: string, keep: (name: string) => boolean): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !keep(entry.name)) continue;
    latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** When the CLI's entry module was last built (0 when it never was); tsc rewrites it on every build. */
function builtAt(): number {
  try {
    return statSync(join(ROOT, 'dist/cli/main.js')).mtimeMs;
  } catch {
    return 0;
  }
}

export default function setup(): void {
  const sources = newest(join(ROOT, 'src'), (name) => (name.endsWith('.ts') && !name.endsWith('.test.ts')) || name.endsWith('.json'));
  if (builtAt() >= sources) return;
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
