// Runs the built CLI (dist/, after `npm run build`) against a local cloud over real HTTP.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { startLocalCloud, type LocalCloud, type LocalCloudOptions } from '../../src/localcloud/server.js';
import { memoryIo } from '../support/memory-io.js';

/** The built CLI's entry module; vitest.config.ts leaves dist/ to Node's loader. */
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
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

/**
 * The built CLI (dist/, as bin/moor.js loads it) run through main(argv, io) in this process, in `cwd`,
 * with MOOR_ENDPOINT and MOOR_TOKEN and no other MOOR_* of the caller: what `node bin/moor.js ...args`
 * prints and exits with, without a process start per command.
 */
export async function moor(args: readonly string[], o: { cwd: string; endpoint: string; env?: Record<string, string> }): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MOOR_')));
  Object.assign(env, { MOOR_ENDPOINT: o.endpoint, MOOR_TOKEN: TOKEN, MOOR_POLL_INTERVAL_MS: '20', NO_COLOR: '1' }, o.env);
  const { main } = (await import(MAIN)) as typeof import('../../src/cli/main.js');
  const io = memoryIo({ cwd: o.cwd, env });
  const code = await main(['node', 'moor', ...args], io);
  return { code, stdout: io.out(), stderr: io.err() };
}
