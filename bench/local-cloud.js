// The standalone local cloud the benchmarks measure against: its own process, real HTTP on loopback.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bearer token every benchmark cloud accepts. */
export const TOKEN = 'bench-token';

/** `moor local-cloud` in its own process; `dataFile` lets a second cloud start from the first one's data. */
export async function startCloud({ latencyMs = 20, provisioningMs = 0, rateLimit, failRate, dataFile }) {
  const bin = fileURLToPath(new URL('../bin/moor.js', import.meta.url));
  const dataDir = dataFile ? undefined : mkdtempSync(join(tmpdir(), 'moor-bench-cloud-'));
  const data = dataFile ?? join(dataDir, 'cloud.json');
  const args = [
    bin,
    'local-cloud',
    '--port',
    '0',
    '--token',
    TOKEN,
    '--latency',
    String(latencyMs),
    '--provisioning-ms',
    String(provisioningMs),
    '--data',
    data,
  ];
  if (rateLimit) args.push('--rate-limit', String(rateLimit));
  if (failRate) args.push('--fail-rate', String(failRate));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise((res, rej) => {
    createInterface({ input: child.stdout }).once('line', (line) => {
      const m = /listening on (\S+)/.exec(line);
      if (m) res(m[1]);
      else rej(new Error(line));
    });
    child.once('exit', (code) => rej(new Error(`local cloud exited ${code}`)));
  });
  return {
    url,
    dataFile: data,
    close: () =>
      new Promise((res) => {
        child.once('exit', () => {
          if (dataDir) rmSync(dataDir, { recursive: true, force: true });
          res();
        });
        child.kill('SIGTERM');
      }),
  };
}
