// A container group created from a container group profile and a standby pool, as the service's
// own sample writes it (containers with only a name and a configMap; ids with `resourcegroups`):
// validate, apply against a local cloud whose fixtures declare the profile, and re-plan empty.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cloudRequest, moor, startCloud, SUB, workdir, writeFile, type Cloud } from './harness.js';

const PROFILE = `/subscriptions/${SUB}/resourcegroups/rg-pool/providers/Vendor.ContainerInstance/containerGroupProfiles/web-profile`;
const POOL = `/subscriptions/${SUB}/resourcegroups/rg-pool/providers/Vendor.StandbyPool/standbyContainerGroupPools/web-pool`;
const PATH = `/subscriptions/${SUB}/resourceGroups/rg-pool/providers/Vendor.ContainerInstance/containerGroups/pooled?api-version=2026-07-01`;

const FIXTURES = `containerGroupProfiles:
  - id: ${PROFILE.replace('resourcegroups', 'resourceGroups')}
    revision: 2
    containers: [{name: web, image: nginx:1.27, cpu: 1, memoryInGB: 1.5}]
`;

function pooled(profile = PROFILE, revision = 1): string {
  return `apiVersion: moor/v1
kind: ContainerGroup
metadata:
  name: pooled
spec:
  subscriptionId: ${SUB}
  resourceGroup: rg-pool
  location: westeurope
  properties:
    containerGroupProfile:
      id: ${profile}
      revision: ${revision}
    standbyPoolProfile:
      id: ${POOL}
    containers:
      - name: web
        properties:
          configMap:
            keyValuePairs:
              GREETING: hello
`;
}

describe('a container group from a profile and a standby pool', () => {
  let cloud: Cloud;
  let dir: string;
  const run = (...args: string[]) => moor(dir, cloud, args);

  beforeAll(async () => {
    const fixtures = workdir({ 'fixtures.yaml': FIXTURES });
    cloud = await startCloud({ args: ['--fixtures', `${fixtures}/fixtures.yaml`] });
    dir = workdir({ 'm/pooled.yaml': pooled() });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('validates without an image, applies, answers isCreatedFromStandbyPool and re-plans empty', async () => {
    const validate = await run('validate', 'm');
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    expect(validate.stdout + validate.stderr).not.toContain('warning');
    const apply = await run('apply', 'm', '--auto-approve');
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const live = (await cloudRequest(cloud, 'GET', PATH)).body;
    expect(live.properties.isCreatedFromStandbyPool).toBe(true);
    expect(live.properties.containers).toEqual([
      expect.objectContaining({ name: 'web', properties: expect.objectContaining({ configMap: { keyValuePairs: { GREETING: 'hello' } } }) }),
    ]);
    const again = await run('plan', 'm', '--detailed-exitcode');
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  test("a profile the cloud does not hold is refused in the service's own error shape, named by plan and apply", async () => {
    writeFile(dir, 'm/pooled.yaml', pooled(PROFILE.replace('web-profile', 'no-such-profile')));
    const apply = await run('apply', 'm', '--auto-approve');
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain('ContainerGroupProfileNotFound');
    expect(apply.stdout + apply.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  });

  test('without a profile, a container still needs an image', async () => {
    writeFile(dir, 'm/pooled.yaml', pooled().replace(/ {4}containerGroupProfile:\n.*\n.*\n/, ''));
    const validate = await run('validate', 'm');
    expect(validate.code).toBe(1);
    expect(validate.stdout).toMatch(
      /m\/pooled\.yaml:\d+:\d+: error: spec\.properties\.containers\[0\]\.properties: missing required field image \(or create the group from a properties\.containerGroupProfile\)/,
    );
  });
});
