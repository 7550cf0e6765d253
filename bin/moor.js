#!/usr/bin/env node
// The built CLI lives in dist/ (made by `npm run build`, run on install by `prepare`). This file
// and the host it builds are the only code that touches the process: main gets it as a value.
import { setFlagsFromString } from 'node:v8';

// After each full collection V8 lets the heap grow to up to four times what survived it before
// collecting again, so a big apply peaked at 2-3 times what it holds (10,000 groups: 580 MB
// resident for about 200 MB live). 25 % headroom keeps the peak near what is live for a few more
// full collections, which cost little next to the requests. A node flag of the user's wins.
if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent'))) setFlagsFromString('--heap-growing-percent=25');

// A clone that was never built: say so, rather than a stack trace of a missing module.
const { statSync } = await import('node:fs');
const built = (path) => statSync(new URL(path, import.meta.url), { throwIfNoEntry: false });
const entry = built('../dist/cli/main.js');
if (!entry) {
  process.stderr.write(
    `moor is not built: ${new URL('../dist/', import.meta.url).pathname} is missing; run 'npm ci' (or 'npm run build') in ${new URL('..', import.meta.url).pathname}, or install a packed moor (npm pack)\n`,
  );
  process.exit(1);
}

// The bundle `npm run build` makes (dist/bundle/, scripts/bundle-cli.mjs) starts with about a third
// less CPU than the ~400 modules of dist/cli/. A build with tsc alone (the GitHub Action's, which
// installs no bundler) has none, and one older than dist/cli/main.js is stale: then dist/cli/ runs.
const bundle = built('../dist/bundle/moor.js');
const [mainModule, ioModule] =
  bundle && bundle.mtimeMs >= entry.mtimeMs ? ['../dist/bundle/moor.js', '../dist/bundle/process-io.js'] : ['../dist/cli/main.js', '../dist/cli/process-io.js'];
const { main } = await import(mainModule);
const { processIo } = await import(ioModule);
main(process.argv, processIo()).then((code) => {
  process.exitCode = code;
});
