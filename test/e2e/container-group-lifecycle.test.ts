// Plan, apply, drift and prune of container groups: the built CLI against a standalone local cloud.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ARM_PATH, cloudRequest, groupManifest, moor, putBehindMoor, startCloud, workdir, writeFile, type Cloud } from './harness.js';

const SECRET = 'e2e-very-secret-password';

describe('container group lifecycle', () => {
  let cloud: Cloud;
  let dir: string;
  const run = (...args: string[]) => moor(dir, cloud, args);

  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({ 'm/secret.txt': SECRET + '\n', 'm/web.yaml': groupManifest('web'), 'm/api.yaml': groupManifest('api', { tags: { team: 'core' } }) });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('apply creates the groups and a second plan has nothing to do', async () => {
    const first = await run('plan', 'm', '--detailed-exitcode');
    expect(first.stdout).toContain('Plan: 2 to create, 0 to update, 0 to replace, 0 to delete, 0 to run.');
    expect(first.code).toBe(2);
    const apply = await run('apply', 'm', '--auto-approve');
    expect(apply.stderr + apply.stdout).toContain('Apply complete: 2 created');
    expect(apply.code).toBe(0);
    const again = await run('plan', 'm', '--detailed-exitcode');
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  test('an image edit is an in-place update naming only that field', async () => {
    writeFile(dir, 'm/web.yaml', groupManifest('web', { image: 'nginx:1.28' }));
    const plan = await run('plan', 'm', '--output', 'json');
    const doc = JSON.parse(plan.stdout);
    const web = doc.changes.find((c: { address: string }) => c.address === 'ContainerGroup/web');
    expect(web.action).toBe('update');
    expect(web.patch).toEqual([{ op: 'replace', path: '/properties/containers/0/properties/image', value: 'nginx:1.28' }]);
    expect(doc.changes.find((c: { address: string }) => c.address === 'ContainerGroup/api').action).toBe('no-op');
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  });

  test('a cpu change replaces the group', async () => {
    writeFile(dir, 'm/web.yaml', groupManifest('web', { image: 'nginx:1.28', cpu: 2 }));
    const plan = await run('plan', 'm');
    expect(plan.stdout).toMatch(/-\/\+ ContainerGroup\/web/);
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 1 to replace, 0 to delete, 0 to run.');
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    const live = await cloudRequest(cloud, 'GET', ARM_PATH('web'));
    expect(live.body.properties.containers[0].properties.resources.requests.cpu).toBe(2);
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  });

  test('an out-of-band change is drift naming only the changed field, and apply converges', async () => {
    const live = await cloudRequest(cloud, 'GET', ARM_PATH('api'));
    const body = { location: live.body.location, tags: live.body.tags, properties: { ...live.body.properties } };
    body.properties.containers[0].properties.image = 'nginx:tampered';
    body.properties.containers[0].properties.environmentVariables[1].secureValue = SECRET;
    const put = await putBehindMoor(cloud, ARM_PATH('api'), body);
    expect(put.status).toBe(200);
    const drift = await run('drift', 'm', '--output', 'json');
    expect(drift.code).toBe(2);
    const doc = JSON.parse(drift.stdout);
    expect(doc.changes).toHaveLength(1);
    expect(doc.changes[0].address).toBe('ContainerGroup/api');
    expect(doc.changes[0].patch.map((p: { path: string }) => p.path)).toEqual(['/properties/containers/0/properties/image']);
    const text = await run('drift', 'm');
    expect(text.stdout).toContain('nginx:tampered');
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect((await run('drift', 'm')).code).toBe(0);
  });

  test('a group removed from the manifests is deleted only with --prune', async () => {
    writeFile(dir, 'm/api.yaml', '# retired\n');
    const plain = await run('plan', 'm');
    expect(plain.stdout + plain.stderr).toContain('apply --prune');
    const pruned = await run('plan', 'm', '--prune');
    expect(pruned.stdout).toContain('Plan: 0 to create, 0 to update, 0 to replace, 1 to delete, 0 to run.');
    expect((await run('apply', 'm', '--auto-approve', '--prune')).code).toBe(0);
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('api'))).status).toBe(404);
  });

  test('a saved plan applies, and is refused once state moved on', async () => {
    writeFile(dir, 'm/web.yaml', groupManifest('web', { image: 'nginx:1.29', cpu: 2 }));
    const saved = join(dir, 'web.plan');
    expect((await run('plan', 'm', '--out', saved)).code).toBe(0);
    expect(readFileSync(saved, 'utf8')).not.toContain(SECRET);
    expect((await run('apply', '--plan', saved)).code).toBe(0);
    const stale = await run('apply', '--plan', saved);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('stale');
  });

  test('no secret appears in state, the local cloud answers, or any output', async () => {
    const state = readFileSync(join(dir, '.moor/state.json'), 'utf8');
    expect(state).not.toContain(SECRET);
    expect(state).toContain('sha256:');
    const live = await cloudRequest(cloud, 'GET', ARM_PATH('web'));
    expect(JSON.stringify(live.body)).not.toContain(SECRET);
    for (const args of [
      ['plan', 'm'],
      ['plan', 'm', '--output', 'json'],
      ['plan', 'm', '--output', 'markdown'],
      ['drift', 'm'],
      ['state', 'show', 'ContainerGroup/web'],
    ]) {
      const r = await run(...args);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(r.stdout + r.stderr).not.toContain('e2e-token');
    }
  });
});
