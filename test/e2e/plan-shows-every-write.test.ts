// Plan and drift show every difference the next write makes: out-of-band values a whole-body PUT
// removes, ARM's normalised answers, a create's after-values, named paths, the unknown marker.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ARM_PATH, cloudRequest, groupManifest, moor, putBehindMoor, startCloud, workdir, writeFile, type Cloud } from './harness.js';

const SECRET = 'e2e-plan-secret';

describe('plan shows every write', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('a tag added out of band is drift, and the plan shows the PUT removing it', async () => {
    const dir = workdir({ 'm/secret.txt': SECRET, 'm/tagged.yaml': groupManifest('tagged', { tags: { team: 'core' } }) });
    const run = (...args: string[]) => moor(dir, cloud, args);
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect((await run('drift', 'm')).code).toBe(0);

    const live = await cloudRequest(cloud, 'GET', ARM_PATH('tagged'));
    const put = await putBehindMoor(cloud, ARM_PATH('tagged'), { ...live.body, tags: { team: 'core', owner: 'alice' } });
    expect(put.status).toBe(200);

    const drift = await run('drift', 'm');
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('- /tags/owner: "alice"  (drifted) the next apply will remove it');
    const driftJson = JSON.parse((await run('drift', 'm', '--output', 'json')).stdout);
    expect(driftJson.changes[0].patch).toEqual([{ op: 'remove', path: '/tags/owner' }]);

    const plan = await run('plan', 'm', '--detailed-exitcode');
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('~ ContainerGroup/tagged will be updated in place');
    expect(plan.stdout).toContain('- /tags/owner: "alice"  (drifted) will be removed');
    // The PUT sends the hidden secret again; the plan says so without showing it.
    expect(plan.stdout).toContain(
      '/properties/containers[name=app]/properties/environmentVariables[name=DB_PASSWORD]/secureValue: (sensitive, written on every update)',
    );
    expect(plan.stdout).not.toContain(SECRET);

    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('tagged'))).body.tags).toEqual({ team: 'core' });
    expect((await run('drift', 'm')).code).toBe(0);
  });

  test('location "West Europe" applies, re-plans empty and shows no drift; resource group casing is no change', async () => {
    const manifest = groupManifest('spelled').replace('location: westeurope', 'location: West Europe');
    const dir = workdir({ 'm/secret.txt': SECRET, 'm/spelled.yaml': manifest });
    const run = (...args: string[]) => moor(dir, cloud, args);
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('spelled'))).body.location).toBe('westeurope');
    const again = await run('plan', 'm', '--detailed-exitcode');
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
    expect((await run('drift', 'm')).code).toBe(0);

    writeFile(dir, 'm/spelled.yaml', manifest.replace('resourceGroup: rg-e2e', 'resourceGroup: RG-E2E'));
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  });

  test('a create shows its after-values in text and JSON, secrets masked, unknowns marked', async () => {
    const withRef = groupManifest('ref-b').replace(
      '            - name: MODE\n',
      '            - name: UPSTREAM\n              value: ${ref:ContainerGroup/ref-a#/id}\n            - name: MODE\n',
    );
    const dir = workdir({ 'm/secret.txt': SECRET, 'm/a.yaml': groupManifest('ref-a'), 'm/b.yaml': withRef });
    const text = await moor(dir, cloud, ['plan', 'm']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('+ ContainerGroup/ref-b will be created');
    expect(text.stdout).toContain('      + /location = "westeurope"');
    expect(text.stdout).toContain('      + /properties/containers[name=app]/properties/image = "nginx:1.27"');
    expect(text.stdout).toContain('      + /properties/containers[name=app]/properties/environmentVariables[name=DB_PASSWORD]/secureValue = (sensitive)');
    expect(text.stdout).toContain('      + /properties/containers[name=app]/properties/environmentVariables[name=UPSTREAM]/value = (known after apply)');
    expect(text.stdout).not.toContain('"(known after apply)"');

    const out = await moor(dir, cloud, ['plan', 'm', '--output', 'json']);
    expect(out.stdout).not.toContain(SECRET);
    expect(out.stdout).not.toContain('known after apply');
    const b = JSON.parse(out.stdout).changes.find((c: { address: string }) => c.address === 'ContainerGroup/ref-b');
    expect(b.after).toMatchObject({ location: 'westeurope', resourceGroup: 'rg-e2e' });
    const envs = b.after.properties.containers[0].properties.environmentVariables;
    expect(envs).toEqual([
      { name: 'UPSTREAM', value: { unknown: true } },
      { name: 'MODE', value: 'production' },
      { name: 'DB_PASSWORD', secureValue: '(sensitive)' },
    ]);
    const upstream = b.fields.find((f: { path: string }) => f.path.endsWith('[name=UPSTREAM]/value'));
    expect(upstream).toMatchObject({ op: 'add', unknown: true, pointer: '/properties/containers/0/properties/environmentVariables/0/value' });
    expect(upstream).not.toHaveProperty('after');
  });

  test('an update names the changed field by element; the patch keeps a real pointer', async () => {
    const dir = workdir({ 'm/secret.txt': SECRET, 'm/named.yaml': groupManifest('named') });
    expect((await moor(dir, cloud, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    writeFile(dir, 'm/named.yaml', groupManifest('named', { image: 'nginx:1.28' }));
    const text = await moor(dir, cloud, ['plan', 'm']);
    expect(text.stdout).toContain('~ /properties/containers[name=app]/properties/image: "nginx:1.27" → "nginx:1.28"  (manifest changed)');
    const doc = JSON.parse((await moor(dir, cloud, ['plan', 'm', '--output', 'json'])).stdout);
    expect(doc.changes[0].fields[0]).toMatchObject({
      path: '/properties/containers[name=app]/properties/image',
      pointer: '/properties/containers/0/properties/image',
    });
    expect(doc.changes[0].patch).toEqual([{ op: 'replace', path: '/properties/containers/0/properties/image', value: 'nginx:1.28' }]);
  });
});
