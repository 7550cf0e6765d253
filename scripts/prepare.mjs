// npm's prepare (after `npm ci` in a clone; when npx or npm installs this folder or a git URL of
// it): builds dist/ unless it is up to date with the sources, so `npx moor` in a clone that was
// built already starts at once instead of building a copy. `npm run build` always builds.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The last output of a build (after tsc the schemas are compiled, then the command line bundled). */
const built = join(root, 'dist', 'bundle', 'moor.js');

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const sources = ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/compile-schemas.mjs', 'scripts/bundle-cli.mjs']
  .map((p) => join(root, p))
  .filter(existsSync);
if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newest))) {
  process.stdout.write('moor: dist/ is up to date with the sources; not building\n');
} else {
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}
