// A rename: after `moor state mv` a replace must show the name (and so the id) it changes, and a
// manifest's metadata.movedFrom plans the rename as a move of its state record, not create + orphan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARM_PATH, cloudRequest, groupManifest, listedGroups, moor, readState, startCloud, workdir, writeFile, type Cloud } from './harness.js';

const renamed = (name: string, extra: { cpu?: number; image?: string; movedFrom?: string } = {}) => {
  const text = groupManifest(name, { cpu: extra.cpu, image: extra.image });
  return extra.movedFrom ? text.replace(`  name: ${name}\n`, `  name: ${name}\n  movedFrom: [${extra.movedFrom}]\n`) : text;
};

describe('renaming a container group', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it('after state mv, a replace shows the new name it creates the group under', async () => {
    const dir = workdir({ 'm/secret.txt': 's3cret-value', 'm/group.yaml': renamed('api') });
    {
      const r = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    }
    expect((await moor(dir, cloud, ['state', 'mv', 'ContainerGroup/api', 'ContainerGroup/backend'])).code).toBe(0);
    writeFile(dir, 'm/group.yaml', renamed('backend', { cpu: 2 }));
    const plan = await moor(dir, cloud, ['plan', 'm']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('-/+ ContainerGroup/backend must be replaced');
    expect(plan.stdout).toMatch(/~ \/name: "api" → "backend" {2}\(manifest changed\) {2}# forces replacement/);
    expect(plan.stdout).toMatch(/~ \/properties\/containers\[name=app\]\/properties\/resources\/requests\/cpu: 1 → 2/);
    const json = JSON.parse((await moor(dir, cloud, ['plan', 'm', '--output', 'json'])).stdout) as {
      changes: { address: string; fields: { path: string; before?: unknown; after?: unknown }[] }[];
    };
    expect(json.changes[0].fields).toContainEqual(expect.objectContaining({ path: '/name', before: 'api', after: 'backend' }));
  });

  it('metadata.movedFrom plans a move (text, JSON, markdown), apply moves state, and the group is never recreated', async () => {
    const dir = workdir({ 'm/secret.txt': 's3cret-value', 'm/group.yaml': groupManifest('web').replace('resourceGroup: rg-e2e', 'resourceGroup: rg-moves') });
    {
      const r = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    }
    const created = (await listedGroups(cloud, 'rg-moves')).find((g) => g.name === 'web')!.systemData.createdAt;
    // The group keeps its name at the service: spec.name says so; the address changes.
    const frontend = groupManifest('frontend')
      .replace('resourceGroup: rg-e2e', 'resourceGroup: rg-moves')
      .replace('  name: frontend\n', '  name: frontend\n  movedFrom: [ContainerGroup/web]\n')
      .replace('  location:', '  name: web\n  location:');
    writeFile(dir, 'm/group.yaml', frontend);
    const text = await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode']);
    expect(text.code, text.stdout + text.stderr).toBe(2);
    expect(text.stdout).toContain('ContainerGroup/frontend has moved from ContainerGroup/web (apply moves its state record)');
    expect(text.stdout).not.toContain('is in state but no longer in the manifests');
    expect(text.stdout).toContain('Plan: 0 to create, 0 to update, 0 to replace, 0 to delete, 0 to run.');
    const json = JSON.parse((await moor(dir, cloud, ['plan', 'm', '--output', 'json'])).stdout) as {
      changes: { address: string; action: string; movedFrom?: string }[];
    };
    expect(json.changes).toEqual([expect.objectContaining({ address: 'ContainerGroup/frontend', action: 'no-op', movedFrom: 'ContainerGroup/web' })]);
    const md = await moor(dir, cloud, ['plan', 'm', '--output', 'markdown']);
    expect(md.stdout).toContain('has moved from ContainerGroup/web');

    const apply = await moor(dir, cloud, ['apply', 'm', '--auto-approve', '--prune']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const state = await readState(dir);
    expect(Object.keys(state.resources)).toEqual(['ContainerGroup/frontend']);
    expect(state.resources['ContainerGroup/frontend'].id).toMatch(/\/containerGroups\/web$/);
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('web').replace('rg-e2e', 'rg-moves'))).status).toBe(200);
    expect((await listedGroups(cloud, 'rg-moves')).map((g) => [g.name, g.systemData.createdAt])).toEqual([['web', created]]);
    const again = await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);

    // A change together with the move: one update, recorded under the new address.
    writeFile(
      dir,
      'm/group.yaml',
      frontend.replace('nginx:1.27', 'nginx:1.28').replace('movedFrom: [ContainerGroup/web]', 'movedFrom: [ContainerGroup/web, ContainerGroup/older]'),
    );
    {
      const r = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    }
    expect(Object.keys((await readState(dir)).resources)).toEqual(['ContainerGroup/frontend']);
  }, 180_000); // nine CLI runs

  it('validate names a movedFrom of another kind at its line', async () => {
    const dir = workdir({ 'm/group.yaml': renamed('x', { movedFrom: 'AuthContext/x1' }) });
    const out = await moor(dir, undefined, ['validate', 'm']);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/m\/group\.yaml:5:\d+: error: metadata\.movedFrom\[0\]: must be a former address of this ContainerGroup, ContainerGroup\/NAME/);
  });
});
