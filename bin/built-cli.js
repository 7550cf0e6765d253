// Which build a start of moor runs, for bin/moor.js and the GitHub Action's scripts/action-run.mjs
// (a step's commands in one process): the bundle `npm run build` makes (dist/bundle/, about a third
// less CPU to start than the ~400 modules of dist/cli/), else dist/cli/. A build with tsc alone (the
// GitHub Action's, which installs no bundler) has no bundle, and one older than dist/cli/main.js is
// stale: then dist/cli/ runs. A clone never built says so in one line, not with a stack trace.
import { statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

/** main(argv, io) and processIo() of the build under `root` (the package's folder, a URL ending in /); exits 1 when there is none. */
export async function loadBuiltCli(root) {
  // After each full collection V8 lets the heap grow to up to four times what survived it before
  // collecting again, so a big apply peaked at 2-3 times what it holds (10,000 groups: 580 MB
  // resident for about 200 MB live). 25 % headroom keeps the peak near what is live for a few more
  // full collections, which cost little next to the requests. A node flag of the user's wins.
  if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent'))) setFlagsFromString('--heap-growing-percent=25');
  // V8 optimizes a function once it has run about 132 KB of bytecode. A run of moor is short, and the
  // YAML parser's large functions are optimized, deoptimized on the next odd input and optimized again:
  // validating 360 damaged manifests spent more CPU compiling (on V8's background threads) than
  // running. Waiting for about 1 MB of bytecode (more type feedback) cut that validate from 5.9 to
  // 3.9 CPU-s and a plan of 60 of them from 2.4 to 1.5; small runs do not change. A node flag of the user's wins.
  if (!process.execArgv.some((a) => a.startsWith('--interrupt-budget'))) setFlagsFromString('--interrupt-budget=1000000');
  const built = (path) => statSync(new URL(path, root), { throwIfNoEntry: false });
  const entry = built('dist/cli/main.js');
  if (!entry) {
    process.stderr.write(
      `moor is not built: ${new URL('dist/', root).pathname} is missing; run 'npm ci' (or 'npm run build') in ${root.pathname}, or install a packed moor (npm pack)\n`,
    );
    process.exit(1);
  }
  const bundle = built('dist/bundle/moor.js');
  const [mainModule, ioModule] =
    bundle && bundle.mtimeMs >= entry.mtimeMs ? ['dist/bundle/moor.js', 'dist/bundle/process-io.js'] : ['dist/cli/main.js', 'dist/cli/process-io.js'];
  const [{ main }, { processIo }] = await Promise.all([import(new URL(mainModule, root).href), import(new URL(ioModule, root).href)]);
  return { main, processIo };
}
