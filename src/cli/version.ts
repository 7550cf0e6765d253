// `moor --version` and `moor version`: what a bug report needs, answered without loading the engine.
import { readFileSync } from 'node:fs';

/** The state document format this moor reads and writes (state.json's "version"). */
export const STATE_FORMAT_VERSION = 1;

export function moorVersion(): string {
  // dist/cli/version.js -> package.json at the package root.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function versionText(): string {
  return `moor ${moorVersion()}\nnode ${process.version}\nstate format ${STATE_FORMAT_VERSION}`;
}
