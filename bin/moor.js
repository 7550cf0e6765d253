#!/usr/bin/env node
// The built CLI lives in dist/ (made by `npm run build`, run on install by `prepare`); built-cli.js
// says which build runs. This file and the host it builds are the only code that touches the process:
// main gets it as a value.
import { loadBuiltCli } from './built-cli.js';

const { main, processIo } = await loadBuiltCli(new URL('..', import.meta.url));
main(process.argv, processIo()).then((code) => {
  process.exitCode = code;
});
