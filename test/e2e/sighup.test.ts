// SIGHUP (the terminal or session closed) stops apply as SIGTERM does: it says Interrupted, records
// what was in flight, and releases the state lock instead of dying with it held.
// The cloud reads a test clock and provisioning lasts an hour of it: the group is still provisioning when
// the signal comes, however slow the machine, and the test ends the provisioning once the next apply waits.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testClock } from '../support/test-clock.js';
import { ARM_PATH, cloudRequest, groupManifest, moor, startCloud, startMoor, workdir, type Cloud } from './harness.js';
import { moorProcess } from './processes.js';

const HOUR_MS = 3_600_000;

describe('apply sent SIGHUP', () => {
  let cloud: Cloud;
  const clock = testClock();
  beforeAll(async () => {
    cloud = await startCloud({ clock, env: { MOOR_PROVISIONING_MS: String(HOUR_MS) } });
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
    const next = startMoor(dir, cloud, ['apply', 'm', '--auto-approve']);
    await next.written(/ContainerGroup\/hup-g: waiting for the service to finish its earlier write/);
    clock.advance(HOUR_MS); // the provisioning the interrupted apply left ends
    const again = await next;
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect((await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode'])).code).toBe(0);
  });
});
