// bin/moor.js starts the bundle `npm run build` makes (dist/bundle/, scripts/bundle-cli.mjs): the same
// command line in a few dozen files instead of ~400 modules. Without a bundle (a build with tsc alone,
// as the GitHub Action's install makes) or with one older than dist/cli/main.js (tsc ran again since),
// it runs dist/cli/ as before; a clone never built still says so in one line.
import { cpSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { ROOT, workdir } from '../e2e/harness.js';
import { runBin, runRecordingModules } from './loaded-modules.js';

const BIN = join(ROOT, 'bin/moor.js');
const AUTH = 'apiVersion: moor/v1\nkind: AuthContext\nmetadata:\n  name: c1\nspec:\n  displayName: Require trusted device\n  isAvailable: true\n';

/** A copy of bin/ (moor.js and built-cli.js) beside a dist/ whose cli/ is the real build's (linked); the rest as `setup` makes it. */
function scratchInstall(setup: (dist: string) => void = () => undefined): string {
  const dir = workdir();
  mkdirSync(join(dir, 'bin'));
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
  mkdirSync(join(dir, 'dist'));
  symlinkSync(join(ROOT, 'dist/cli'), join(dir, 'dist/cli'), 'dir');
  setup(join(dir, 'dist'));
  return dir;
}

const fromBundle = (url: string) => url.includes('/dist/bundle/');
/** Starts of node on a loaded machine: a wait for them to finish, not a timing. */
const SLOW = 300_000;
const fromCli = (url: string) => url.includes('/dist/cli/');
/** The module holds the yaml package's code (its document symbol), wherever the bundle put it. */
const holdsYamlParser = (url: string) => readFileSync(fileURLToPath(url), 'utf8').includes('Symbol.for("yaml.document")');

describe('which build a start of moor runs', () => {
  test(
    'the bundle of npm run build runs validate and --version, loading no module of dist/cli/',
    async () => {
      const dir = workdir({ 'm/auth.yaml': AUTH });
      const valid = await runRecordingModules(BIN, ['validate', 'm'], dir);
      expect(valid.stdout).toBe('ok: 1 manifest in 1 file is valid\n');
      expect(valid.code).toBe(0);
      expect(valid.loaded.some(fromBundle)).toBe(true);
      expect(valid.loaded.filter(fromCli)).toEqual([]);

      const version = await runRecordingModules(BIN, ['--version'], dir);
      expect(version.stdout).toMatch(/^moor \d+\.\d+\.\d+\n/);
      expect(version.loaded.filter(fromCli)).toEqual([]);
      // Only the commands that read YAML load its parser (about 230 KB of the bundle): validate does, --version does not.
      expect(valid.loaded.some(holdsYamlParser)).toBe(true);
      expect(version.loaded.filter(holdsYamlParser)).toEqual([]);
    },
    SLOW,
  );

  test(
    "the bundle's errors are one line at their manifest, never a stack trace",
    async () => {
      const dir = workdir({ 'm/auth.yaml': AUTH });
      const unreachable = await runRecordingModules(BIN, ['plan', 'm'], dir, { ...process.env, MOOR_ENDPOINT: 'http://127.0.0.1:9', MOOR_TOKEN: 'x' });
      expect(unreachable.code).toBe(1);
      expect(unreachable.stdout).toContain("m/auth.yaml:4:9: error: AuthContext/c1: GET authContexts/c1: no answer: cannot reach service 'graph'");
      expect(unreachable.stdout + unreachable.stderr).not.toMatch(/^\s+at /m);
      expect(unreachable.loaded.filter(fromCli)).toEqual([]);
    },
    SLOW,
  );

  test(
    'no bundle (a build with tsc alone, as the GitHub Action makes): dist/cli/ runs',
    async () => {
      const dir = scratchInstall();
      writeFileSync(join(dir, 'auth.yaml'), AUTH);
      const r = await runRecordingModules(join(dir, 'bin/moor.js'), ['validate', 'auth.yaml'], dir);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('ok: 1 manifest in 1 file is valid\n');
      expect(r.loaded.some((url) => url.endsWith('/dist/cli/main.js'))).toBe(true);
    },
    SLOW,
  );

  test(
    'a bundle older than dist/cli/main.js is stale and never runs',
    async () => {
      const dir = scratchInstall((dist) => {
        mkdirSync(join(dist, 'bundle'));
        const stale = join(dist, 'bundle/moor.js');
        writeFileSync(stale, "throw new Error('the stale bundle ran');\n");
        writeFileSync(join(dist, 'bundle/process-io.js'), "throw new Error('the stale bundle ran');\n");
        const built = statSync(join(ROOT, 'dist/cli/main.js')).mtime;
        const older = new Date(built.getTime() - 60_000);
        utimesSync(stale, older, older);
      });
      // The stale bundle throws if it runs; which modules did run is not asked, so no module hook.
      const r = await runBin(join(dir, 'bin/moor.js'), ['--version'], dir);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^moor \d+\.\d+\.\d+\n/);
    },
    SLOW,
  );
});
