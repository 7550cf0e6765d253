#!/usr/bin/env node
// The built CLI lives in dist/ (made by `npm run build`, run on install by `prepare`).
import { main } from '../dist/cli/main.js';
main(process.argv).then((code) => { process.exitCode = code; });
