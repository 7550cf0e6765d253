// `moor local-cloud` as users run it: the listening line first, the token, a clean stop that keeps the data.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { call, groupBody, groupUrl } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/moor.js');

function start(args: string[], cwd: string): { child: ChildProcess; firstLine: Promise<string>; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, 'local-cloud', ...args], { cwd, env: { ...process.env, MOOR_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout });
  const firstLine = new Promise<string>((res, rej) => {
    lines.once('line', res);
    child.once('exit', (code) => rej(new Error(`exited ${code} before printing`)));
  });
  const exit = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  return { child, firstLine, exit };
}

describe('moor local-cloud', () => {
  it('prints the listening line first, accepts only its token, and keeps its data after SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'moor-lc-'));
    const { child, firstLine, exit } = start(['--port', '0', '--token', 'tok-123', '--provisioning-ms', '0'], dir);
    const line = await firstLine;
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice('listening on '.length);
    expect((await call(groupUrl(url, 'web'))).status).toBe(401);
    expect((await call(groupUrl(url, 'web'), { method: 'PUT', body: groupBody(), token: 'tok-123' })).status).toBe(201);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    const saved = JSON.parse(await readFile(join(dir, '.moor/local-cloud.json'), 'utf8'));
    expect(JSON.stringify(saved)).toContain('"name":"web"');
  });

  it('refuses a bad option with a clear message and exit code 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'moor-lc-'));
    const child = spawn(process.execPath, [BIN, 'local-cloud', '--fail-rate', '1.5'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    const code = await new Promise<number | null>((res) => child.once('exit', res));
    expect(code).toBe(1);
    expect(stderr).toContain('--fail-rate must be a probability from 0 to 1');
    expect(stderr).not.toContain('    at ');
  });
});
