// SIGHUP (the terminal or session closed) stops apply as SIGTERM does: it says Interrupted, records
// what was in flight, and releases the state lock instead of dying with it held.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ARM_PATH, cloudRequest, groupManifest, moor, startCloud, workdir, type Cloud } from './harness.js';
import { moorProcess } from './processes.js';

describe('apply sent SIGHUP', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ env: { MOOR_PROVISIONING_MS: '3000' } });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('says Interrupted, releases the lock, and the next apply finishes the work', async () => {
    const dir = workdir({ 'm/secret.txt': 's', 'm/g.yaml': groupManifest('hup-g') });
    const run = moorProcess(dir, cloud, ['apply', 'm', '--auto-approve']);
    while ((await cloudRequest(cloud, 'GET', ARM_PATH('hup-g'))).status !== 200) await new Promise((r) => setTimeout(r, 20));
    run.child.kill('SIGHUP');
    const stopped = await run;
    expect(stopped.code, stopped.stderr).toBe(1);
    expect(stopped.stderr).toContain('Interrupted: finishing the changes in flight and recording them; no new change starts.');
    expect(stopped.stderr).toMatch(/ContainerGroup\/hup-g: interrupted after/);
    expect(existsSync(join(dir, '.moor/state.json.lock'))).toBe(false);
    const again = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect((await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode'])).code).toBe(0);
  });
});
