// Plan, apply, drift and prune of auth contexts: the built CLI against a standalone local cloud.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AUTH_PATH, authManifest, cloudRequest, moor, startCloud, workdir, writeFile, type Cloud } from './harness.js';

interface Change {
  address: string;
  action: string;
  patch: { op: string; path: string; value?: unknown }[];
  drift: boolean;
}
const changeOf = (stdout: string, address: string): Change | undefined => (JSON.parse(stdout).changes as Change[]).find((c) => c.address === address);

describe('auth context lifecycle', () => {
  let cloud: Cloud;
  let dir: string;
  const run = (...args: string[]) => moor(dir, cloud, args);

  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({
      'm/c11.yaml': authManifest('c11', { displayName: 'Require MFA', description: 'strong sign-in', isAvailable: true }),
      // Named by metadata, addressed by spec.id; it never sets isAvailable.
      'm/devices.yaml': authManifest('devices', { id: 'c12', displayName: 'Trusted device' }),
    });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('apply creates both references with their properties and a second plan has nothing to do', async () => {
    const plan = await run('plan', 'm', '--detailed-exitcode');
    expect(plan.stdout).toContain('Plan: 2 to create, 0 to update, 0 to replace, 0 to delete, 0 to run.');
    expect(plan.code).toBe(2);
    const apply = await run('apply', 'm', '--auto-approve');
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout + apply.stderr).toContain('Apply complete: 2 created');
    const c11 = await cloudRequest(cloud, 'GET', AUTH_PATH('c11'));
    expect(c11.body).toMatchObject({ id: 'c11', displayName: 'Require MFA', description: 'strong sign-in', isAvailable: true });
    const c12 = await cloudRequest(cloud, 'GET', AUTH_PATH('c12'));
    expect(c12.body).toMatchObject({ id: 'c12', displayName: 'Trusted device' });
    const again = await run('plan', 'm', '--detailed-exitcode');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  test('a displayName edit is an in-place update of only that field, and keeps the description', async () => {
    writeFile(dir, 'm/c11.yaml', authManifest('c11', { displayName: 'Require phishing-resistant MFA', description: 'strong sign-in', isAvailable: true }));
    const plan = await run('plan', 'm', '--output', 'json');
    const c11 = changeOf(plan.stdout, 'AuthContext/c11')!;
    expect(c11.action).toBe('update');
    expect(c11.drift).toBe(false);
    expect(c11.patch).toEqual([{ op: 'replace', path: '/displayName', value: 'Require phishing-resistant MFA' }]);
    expect(changeOf(plan.stdout, 'AuthContext/devices')!.action).toBe('no-op');
    const text = await run('plan', 'm');
    expect(text.stdout).toMatch(/~ AuthContext\/c11/);
    expect(text.stdout).toContain('Plan: 0 to create, 1 to update, 0 to replace, 0 to delete, 0 to run.');
    const apply = await run('apply', 'm', '--auto-approve');
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const live = await cloudRequest(cloud, 'GET', AUTH_PATH('c11'));
    expect(live.body).toMatchObject({ displayName: 'Require phishing-resistant MFA', description: 'strong sign-in', isAvailable: true });
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  });

  test('an out-of-band description change is drift naming only that field, and apply puts it back', async () => {
    const patch = await cloudRequest(cloud, 'PATCH', AUTH_PATH('c11'), { description: 'changed in the portal' });
    expect(patch.status).toBe(204);
    const drift = await run('drift', 'm', '--output', 'json');
    expect(drift.code, drift.stdout + drift.stderr).toBe(2);
    const doc = JSON.parse(drift.stdout);
    expect(doc.changes).toHaveLength(1);
    expect(doc.changes[0].address).toBe('AuthContext/c11');
    expect(doc.changes[0].patch).toEqual([{ op: 'replace', path: '/description', value: 'strong sign-in' }]);
    const text = await run('drift', 'm');
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('description');
    expect(text.stdout).toContain('changed in the portal');
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect((await cloudRequest(cloud, 'GET', AUTH_PATH('c11'))).body.description).toBe('strong sign-in');
    expect((await run('drift', 'm')).code).toBe(0);
  });

  test('a property the manifest never set is not drift when it changes out of band', async () => {
    expect((await cloudRequest(cloud, 'PATCH', AUTH_PATH('c12'), { isAvailable: true })).status).toBe(204);
    const drift = await run('drift', 'm');
    expect(drift.code, drift.stdout + drift.stderr).toBe(0);
  });

  test('a reference deleted out of band is drift, and apply creates it again with its properties', async () => {
    expect((await cloudRequest(cloud, 'DELETE', AUTH_PATH('c11'))).status).toBe(204);
    const drift = await run('drift', 'm', '--output', 'json');
    expect(drift.code, drift.stdout + drift.stderr).toBe(2);
    expect(JSON.parse(drift.stdout).changes).toEqual([expect.objectContaining({ address: 'AuthContext/c11', action: 'create', drift: true })]);
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    const live = await cloudRequest(cloud, 'GET', AUTH_PATH('c11'));
    expect(live.body).toMatchObject({ displayName: 'Require phishing-resistant MFA', description: 'strong sign-in', isAvailable: true });
    expect((await run('drift', 'm')).code).toBe(0);
  });

  test('a property removed from the manifest is cleared on the service, as the plan says', async () => {
    writeFile(dir, 'm/c11.yaml', authManifest('c11', { displayName: 'Require phishing-resistant MFA', isAvailable: true }));
    const c11 = changeOf((await run('plan', 'm', '--output', 'json')).stdout, 'AuthContext/c11')!;
    expect(c11.action).toBe('update');
    expect(c11.patch).toEqual([{ op: 'remove', path: '/description' }]);
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect((await cloudRequest(cloud, 'GET', AUTH_PATH('c11'))).body.description ?? null).toBeNull();
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  });

  test('a reference removed from the manifests is deleted only with --prune', async () => {
    writeFile(dir, 'm/devices.yaml', '# retired\n');
    const plain = await run('apply', 'm', '--auto-approve');
    expect(plain.code).toBe(0);
    expect(plain.stdout + plain.stderr).toContain('apply --prune');
    expect((await cloudRequest(cloud, 'GET', AUTH_PATH('c12'))).status).toBe(200);
    const pruned = await run('plan', 'm', '--prune');
    expect(pruned.stdout).toMatch(/- AuthContext\/devices/);
    expect(pruned.stdout).toContain('Plan: 0 to create, 0 to update, 0 to replace, 1 to delete, 0 to run.');
    expect((await run('apply', 'm', '--auto-approve', '--prune')).code).toBe(0);
    expect((await cloudRequest(cloud, 'GET', AUTH_PATH('c12'))).status).toBe(404);
    expect((await cloudRequest(cloud, 'GET', AUTH_PATH('c11'))).status).toBe(200);
    const list = await run('state', 'list');
    expect(list.stdout).not.toContain('AuthContext/devices');
  });
});
