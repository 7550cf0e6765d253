// Ctrl-C during apply on a terminal (listr2 progress): apply, not listr2, handles it — the step in
// flight ends interrupted, the summary is printed and the exit code is 1, as in CI.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, groupManifest, startCloud, TOKEN, workdir, type Cloud } from '../e2e/harness.js';

const PTY_RUN = join(import.meta.dirname, 'pty-run.py');

describe('Ctrl-C during apply on a terminal', () => {
  let cloud: Cloud;
  // Provisioning outlasts the test: the create is still waiting on its operation when Ctrl-C comes.
  beforeAll(async () => { cloud = await startCloud({ env: { MOOR_PROVISIONING_MS: '60000' } }); });
  afterAll(async () => { await cloud?.stop(); });

  test('ends the waiting step as interrupted, prints the summary and exits 1 (not 127)', async () => {
    const dir = workdir({ 'm/secret.txt': 'terminal-interrupt-secret\n', 'm/web.yaml': groupManifest('web') });
    const env = { ...process.env, NO_COLOR: '1', MOOR_POLL_INTERVAL_MS: '200', MOOR_ENDPOINT: cloud.url, MOOR_TOKEN: TOKEN };
    const args = [PTY_RUN, 'ContainerGroup/web: creating', '\\x03', process.execPath, BIN, 'apply', 'm', '--auto-approve'];
    const { code, out } = await new Promise<{ code: number; out: string }>((done) => {
      const child = spawn('python3', args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (d: Buffer) => { text += d.toString(); });
      child.stderr.on('data', (d: Buffer) => { text += d.toString(); });
      child.on('close', (c) => done({ code: c ?? 1, out: text }));
    });
    expect(code, out).toBe(1);
    expect(out).toContain('Interrupted: finishing the changes in flight');
    expect(out).toMatch(/Apply incomplete: .*1 interrupted \(ContainerGroup\/web\)/);
  });
});
