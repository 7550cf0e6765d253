// The usual CI mistake the other way round: state that is not empty but another environment's —
// dev's variables run with prod's state. Planned as it stands, every resource would be replaced:
// prod's deleted, dev's created. plan and apply refuse such a move, say why and what to do, and
// carry it out only when --replace names the resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudRequest, groupManifest, moor, startCloud, SUB, workdir, type Cloud } from './harness.js';

const groupPath = (rg: string, name: string) =>
  `/subscriptions/${SUB}/resourceGroups/${rg}/providers/Vendor.ContainerInstance/containerGroups/${name}?api-version=2026-07-01`;

describe("another environment's state", () => {
  let cloud: Cloud;
  let dir: string;
  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({
      'm/web.yaml': groupManifest('web', { resourceGroup: '${env:RG}' }),
      'm/api.yaml': groupManifest('api', { resourceGroup: '${env:RG}' }),
      'm/secret.txt': 'not-a-real-secret\n',
    });
    const prod = await moor(dir, cloud, ['apply', 'm', '--auto-approve', '--state', 'prod.json'], { RG: 'rg-prod' });
    expect(prod.code, prod.stdout + prod.stderr).toBe(0);
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it("dev's values with prod's state: plan and apply refuse to replace prod's resources, naming where each is and the fix", async () => {
    const plan = await moor(dir, cloud, ['plan', 'm', '--state', 'prod.json'], { RG: 'rg-dev' });
    expect(plan.code).toBe(1);
    const out = plan.stdout + plan.stderr;
    expect(out).toContain(
      "m/web.yaml:7:18: error: ContainerGroup/web: state records it at resourceGroup rg-prod, the manifests put it at resourceGroup rg-dev, so the replace would delete the resource state records and create another there; every resource state shares with these manifests is elsewhere (2 of 2): the state looks like another environment's: point --state (MOOR_STATE, or the stack) at the state these manifests were applied with, or give --replace ContainerGroup/web to move it on purpose",
    );
    expect(out).toContain('give --replace ContainerGroup/api to move it on purpose');
    expect(plan.stdout.trimEnd().split('\n').at(-1)).toMatch(/^Plan failed: 2 errors/);
    const apply = await moor(dir, cloud, ['apply', 'm', '--auto-approve', '--state', 'prod.json'], { RG: 'rg-dev' });
    expect(apply.code).toBe(1);
    for (const name of ['web', 'api']) {
      expect((await cloudRequest(cloud, 'GET', groupPath('rg-prod', name))).status).toBe(200);
      expect((await cloudRequest(cloud, 'GET', groupPath('rg-dev', name))).status).toBe(404);
    }
    // Its own state plans dev's resources as creates; prod's state with prod's values has nothing to do.
    expect((await moor(dir, cloud, ['plan', 'm', '--state', 'dev.json'], { RG: 'rg-dev' })).stdout).toContain('Plan: 2 to create');
    expect((await moor(dir, cloud, ['plan', 'm', '--state', 'prod.json', '--detailed-exitcode'], { RG: 'rg-prod' })).code).toBe(0);
  }, 180_000);

  it('a move named by --replace is carried out: the group is deleted where it was and created where the manifest puts it', async () => {
    const apply = await moor(dir, cloud, ['apply', 'm/web.yaml', '--auto-approve', '--state', 'web.json'], { RG: 'rg-one' });
    expect(apply.code, apply.stderr).toBe(0);
    const refused = await moor(dir, cloud, ['plan', 'm/web.yaml', '--state', 'web.json'], { RG: 'rg-two' });
    expect(refused.code).toBe(1);
    // One resource: nothing says the whole state is foreign, only that it may be.
    expect(refused.stdout + refused.stderr).toContain("the state may be another environment's: point --state");
    const moved = await moor(dir, cloud, ['apply', 'm/web.yaml', '--auto-approve', '--state', 'web.json', '--replace', 'ContainerGroup/web'], { RG: 'rg-two' });
    expect(moved.code, moved.stdout + moved.stderr).toBe(0);
    expect((await cloudRequest(cloud, 'GET', groupPath('rg-one', 'web'))).status).toBe(404);
    expect((await cloudRequest(cloud, 'GET', groupPath('rg-two', 'web'))).status).toBe(200);
  }, 180_000);
});
