// Ctrl-C during apply on a terminal (listr2 progress): apply, not listr2, handles it — the step in
// flight ends interrupted, the summary is printed and the exit code is 1, as in CI.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { groupManifest, startCloud, TOKEN, workdir, type Cloud } from '../e2e/harness.js';
import { BIN } from '../e2e/processes.js';
import { runOnTerminal } from './terminal.js';

describe('Ctrl-C during apply on a terminal', () => {
  let cloud: Cloud;
  // Provisioning outlasts the test: the create is still waiting on its operation when Ctrl-C comes.
  beforeAll(async () => {
    cloud = await startCloud({ env: { MOOR_PROVISIONING_MS: '60000' } });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('ends the waiting step as interrupted, prints the summary and exits 1 (not 127)', async () => {
    const dir = workdir({ 'm/secret.txt': 'terminal-interrupt-secret\n', 'm/web.yaml': groupManifest('web') });
    const env = { ...process.env, NO_COLOR: '1', MOOR_POLL_INTERVAL_MS: '200', MOOR_ENDPOINT: cloud.url, MOOR_TOKEN: TOKEN };
    const { code, out } = await runOnTerminal('ContainerGroup/web: creating', '\x03', process.execPath, [BIN, 'apply', 'm', '--auto-approve'], {
      cwd: dir,
      env,
    });
    expect(code, out).toBe(1);
    expect(out).toContain('Interrupted: finishing the changes in flight');
    expect(out).toMatch(/Apply incomplete: .*1 interrupted \(ContainerGroup\/web\)/);
  });
});
