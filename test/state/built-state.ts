// Test helper: where child processes load the state modules from. The global setup
// (test/global-setup-build.ts) builds dist/ from the current sources before any test starts, so
// the children load the same engine/state/*.js as the CLI, and 'pg' resolves from the repository.
import { join, resolve } from 'node:path';

/** Directory holding engine/state/*.js (file and PostgreSQL backends, recorder), built from the current sources. */
export function builtDistDir(): string {
  return resolve(import.meta.dirname, '../../dist');
}

export const fixture = (name: string): string => join(import.meta.dirname, 'fixtures', name);
