// Runs the built CLI (bin/moor.js, after `npm run build`) against a local cloud over real HTTP.
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { startLocalCloud, type LocalCloud, type LocalCloudOptions } from '../../src/localcloud/server.js';

export const BIN = fileURLToPath(new URL('../../bin/moor.js', import.meta.url));
// Long enough that the transport's redaction of the token in service messages leaves the words alone.
export const TOKEN = 'moor-e2e-token';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const clouds: LocalCloud[] = [];
afterEach(async () => {
  await Promise.all(clouds.splice(0).map((c) => c.close()));
});

/** A local cloud with its demo data, in memory, closed after the test. */
export async function startCloud(options: LocalCloudOptions = {}): Promise<LocalCloud> {
  const c = await startLocalCloud({ port: 0, token: TOKEN, provisioningMs: 0, ...options });
  clouds.push(c);
  return c;
}

export function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'moor-cli-'));
}

/** `node bin/moor.js ...args` in `cwd`, with MOOR_ENDPOINT and MOOR_TOKEN and no other MOOR_* of the caller. */
export function moor(args: readonly string[], o: { cwd: string; endpoint: string; env?: Record<string, string> }): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MOOR_')));
  Object.assign(env, { MOOR_ENDPOINT: o.endpoint, MOOR_TOKEN: TOKEN, MOOR_POLL_INTERVAL_MS: '20', NO_COLOR: '1' }, o.env);
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: o.cwd, env, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}
