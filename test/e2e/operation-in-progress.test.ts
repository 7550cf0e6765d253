// A write while the group is still provisioning: the local cloud answers 409 AnotherOperationInProgress,
// and `moor apply` waits for the running operation, sends its PUT again and converges.
import { afterEach, describe, expect, test } from 'vitest';
import { ARM_PATH, cloudRequest, groupManifest, moor, startCloud, workdir, type Cloud } from './harness.js';

describe('a write during provisioning', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test('answers 409 to a second PUT, and apply waits for the running operation and converges', async () => {
    const c = (cloud = await startCloud({ env: { MOOR_PROVISIONING_MS: '3000' } }));
    const dir = workdir({ 'm/secret.txt': 'pw-one\n', 'm/web.yaml': groupManifest('web', { tags: { team: 'core' } }) });
    // Someone else creates the group; it provisions for 3 s.
    const body = {
      location: 'westeurope',
      properties: { osType: 'Linux', containers: [{ name: 'app', properties: { image: 'nginx:1.26', resources: { requests: { cpu: 1, memoryInGB: 1.5 } } } }] },
    };
    expect((await cloudRequest(c, 'PUT', ARM_PATH('web'), body)).status).toBe(201);
    const second = await cloudRequest(c, 'PUT', ARM_PATH('web'), body);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('AnotherOperationInProgress');

    const apply = await moor(dir, c, ['apply', 'm', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const live = await cloudRequest(c, 'GET', ARM_PATH('web'));
    expect(live.body.properties.provisioningState).toBe('Succeeded');
    expect(live.body.properties.containers[0].properties.image).toBe('nginx:1.27');
    expect(live.body.tags).toEqual({ team: 'core' });
    const plan = await moor(dir, c, ['plan', 'm', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
