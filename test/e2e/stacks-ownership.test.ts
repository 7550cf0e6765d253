// A live resource belongs to one stack: stacks a and b whose manifests resolve to the same container
// group do not take it over from each other. Planning b against the group a's state records is
// refused naming a, and applying b changes nothing of it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudRequest, groupManifest, moor, startCloud, SUB, workdir, type Cloud } from './harness.js';

const CONFIG = `stacks:
  a: {paths: [m], vars: {rg: rg-shared, team: alpha}}
  b: {paths: [m], vars: {rg: rg-shared, team: beta}}
`;

describe('a live resource belongs to one stack', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it("planning stack b against the group stack a's state records is refused, naming a; applying b leaves a's group alone", async () => {
    const dir = workdir({
      'moor.config.yaml': CONFIG,
      'm/web.yaml': groupManifest('web', { resourceGroup: '${var:rg}', tags: { team: '${var:team}' } }),
      'm/secret.txt': 'not-a-real-secret\n',
    });
    const a = await moor(dir, cloud, ['apply', '--stack', 'a', '--auto-approve']);
    expect(a.code, a.stdout + a.stderr).toBe(0);
    const plan = await moor(dir, cloud, ['plan', '--stack', 'b']);
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain('ContainerGroup/web: the live resource belongs to stack a (its state records it as ContainerGroup/web), not b');
    const apply = await moor(dir, cloud, ['apply', '--stack', 'b', '--auto-approve']);
    expect(apply.code).toBe(1);
    const live = await cloudRequest(
      cloud,
      'GET',
      `/subscriptions/${SUB}/resourceGroups/rg-shared/providers/Vendor.ContainerInstance/containerGroups/web?api-version=2026-07-01`,
    );
    expect(live.body.tags).toEqual({ team: 'alpha' });
    // a itself plans as before: nothing to do.
    expect((await moor(dir, cloud, ['plan', '--stack', 'a', '--detailed-exitcode'])).code).toBe(0);
    // Another group for b is b's own.
    writeFileSync(join(dir, 'moor.config.yaml'), CONFIG.replace('{rg: rg-shared, team: beta}', '{rg: rg-b, team: beta}'));
    const own = await moor(dir, cloud, ['apply', '--stack', 'b', '--auto-approve']);
    expect(own.code, own.stdout + own.stderr).toBe(0);
  }, 180_000);
});
