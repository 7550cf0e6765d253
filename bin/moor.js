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
const { existsSync } = await import('node:fs');
if (!existsSync(new URL('../dist/cli/main.js', import.meta.url))) {
  process.stderr.write(
    `moor is not built: ${new URL('../dist/', import.meta.url).pathname} is missing; run 'npm ci' (or 'npm run build') in ${new URL('..', import.meta.url).pathname}, or install a packed moor (npm pack)\n`,
  );
  process.exit(1);
}

const { main } = await import('../dist/cli/main.js');
const { processIo } = await import('../dist/cli/process-io.js');
main(process.argv, processIo()).then((code) => {
  process.exitCode = code;
});
