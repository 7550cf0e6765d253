// A write while the group is still provisioning: the local cloud answers 409 AnotherOperationInProgress,
// and `moor apply` waits for the running operation, sends its PUT again and converges.
// The cloud reads a test clock and provisioning lasts an hour of it: the other's operation runs until the
// apply's PUT has met the 409, and the test ends it then, so nothing depends on how fast this machine is.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { RequestLogLine } from '../../src/localcloud/request-log.js';
import { testClock } from '../support/test-clock.js';
import { ARM_PATH, cloudRequest, groupManifest, moor, startCloud, startMoor, workdir, type Cloud, type RunResult } from './harness.js';

const HOUR_MS = 3_600_000;

/** Until the request log has `count` PUTs of the group answered `status` (or in [200, 300) for 'ok'); a failure when the run ends first. */
async function untilPuts(log: string, name: string, status: number | 'ok', count: number, run: Promise<RunResult>): Promise<void> {
  let ended: RunResult | undefined;
  void run.then((r) => {
    ended = r;
  });
  const matches = (l: RequestLogLine) =>
    l.method === 'PUT' && l.path.endsWith(`/containerGroups/${name}`) && (status === 'ok' ? l.status >= 200 && l.status < 300 : l.status === status);
  for (;;) {
    // The cloud writes its log as it goes: until its first line is out, there is no file.
    const lines = (existsSync(log) ? readFileSync(log, 'utf8') : '')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as RequestLogLine);
    if (lines.filter(matches).length >= count) return;
    if (ended) throw new Error(`apply ended before ${count} PUTs of ${name} answered ${status}: ${ended.stdout}${ended.stderr}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a write during provisioning', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test('answers 409 to a second PUT, and apply waits for the running operation and converges', async () => {
    const clock = testClock();
    const dir = workdir({ 'm/secret.txt': 'pw-one\n', 'm/web.yaml': groupManifest('web', { tags: { team: 'core' } }) });
    const log = join(dir, 'requests.jsonl');
    const c = (cloud = await startCloud({ clock, args: ['--request-log', log], env: { MOOR_PROVISIONING_MS: String(HOUR_MS) } }));
    // Someone else creates the group; it provisions for an hour of the test clock.
    const body = {
      location: 'westeurope',
      properties: { osType: 'Linux', containers: [{ name: 'app', properties: { image: 'nginx:1.26', resources: { requests: { cpu: 1, memoryInGB: 1.5 } } } }] },
    };
    expect((await cloudRequest(c, 'PUT', ARM_PATH('web'), body)).status).toBe(201);
    const second = await cloudRequest(c, 'PUT', ARM_PATH('web'), body);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('AnotherOperationInProgress');

    const run = startMoor(dir, c, ['apply', 'm', '--auto-approve']);
    await untilPuts(log, 'web', 409, 2, run); // the apply's PUT is refused too (the first 409 is the test's)
    clock.advance(HOUR_MS); // the other's operation ends: the apply sends its PUT again
    await untilPuts(log, 'web', 'ok', 2, run);
    clock.advance(HOUR_MS); // the apply's own update ends
    const apply = await run;
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const live = await cloudRequest(c, 'GET', ARM_PATH('web'));
    expect(live.body.properties.provisioningState).toBe('Succeeded');
    expect(live.body.properties.containers[0].properties.image).toBe('nginx:1.27');
    expect(live.body.tags).toEqual({ team: 'core' });
    const plan = await moor(dir, c, ['plan', 'm', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
