#!/usr/bin/env node
// The built CLI lives in dist/ (made by `npm run build`, run on install by `prepare`). This file
// and the host it builds are the only code that touches the process: main gets it as a value.
import { main } from '../dist/cli/main.js';
import { processIo } from '../dist/cli/process-io.js';
main(process.argv, processIo()).then((code) => { process.exitCode = code; });
