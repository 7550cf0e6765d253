// TypeScript's compiler API for the tests that type-check in their own process (the dashboard's page
// types, the package's declarations). Loaded with require: an `import` of its one CommonJS file (9 MB)
// first has Node scan the whole source for export names to offer, which costs about as much CPU as
// loading it (a bare Node: 1.3 CPU-s by import, 0.7 by require).
import { createRequire } from 'node:module';

export const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
