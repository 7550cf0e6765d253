// Saved plans are a contract, `moor show`, --replace and --refresh-only: the built CLI against a standalone local cloud.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ARM_PATH, cloudRequest, groupManifest, moor, putBehindMoor, startCloud, workdir, writeFile, type Cloud } from './harness.js';
import type { ParsedJson } from '../support/parsed-json.js';

const SECRET = 'e2e-saved-plan-secret';
const SALTED_HASH = /sha256:[^:"\s]+:[0-9a-f]{64}/;

describe('saved plans, show, --replace and --refresh-only', () => {
  let cloud: Cloud;
  let dir: string;
  const run = (...args: string[]) => moor(dir, cloud, args);
  const liveImage = async (name: string) => (await cloudRequest(cloud, 'GET', ARM_PATH(name))).body.properties.containers[0].properties.image as string;
  /** An out-of-band PUT of the group as read, with `edit` applied (the secret sent again, as ARM needs it). */
  const tamper = async (name: string, edit: (body: ParsedJson) => void) => {
    const live = await cloudRequest(cloud, 'GET', ARM_PATH(name));
    const body = { location: live.body.location, tags: live.body.tags, properties: { ...live.body.properties } };
    body.properties.containers[0].properties.environmentVariables[1].secureValue = SECRET;
    edit(body);
    expect((await putBehindMoor(cloud, ARM_PATH(name), body)).status).toBe(200);
  };

  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({ 'm/secret.txt': SECRET + '\n', 'm/web.yaml': groupManifest('web'), 'm/api.yaml': groupManifest('api') });
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('a saved plan holds the reviewed bodies, no secret, and is readable by its owner only', async () => {
    writeFile(dir, 'm/web.yaml', groupManifest('web', { image: 'nginx:1.28' }));
    const file = join(dir, 'p.json');
    writeFile(dir, 'p.json', 'an older file, readable by anyone\n');
    expect((await run('plan', 'm', '--out', file)).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(SECRET);
    const doc = JSON.parse(text);
    expect(doc.format).toBe('moor-plan/1');
    expect(doc.manifestsDigest).toMatch(/^sha256:/);
    const web = doc.changes.find((c: { address: string }) => c.address === 'ContainerGroup/web');
    expect(web).toMatchObject({ action: 'update', drift: false, destructive: false });
    expect(web.patch).toEqual([{ op: 'replace', path: '/properties/containers/0/properties/image', value: 'nginx:1.28' }]);
    expect(web.desired.properties.containers[0].properties.image).toBe('nginx:1.28');
    expect(web.desired.properties.containers[0].properties.environmentVariables[1].secureValue).toMatch(/^sha256:/);
    expect(web.liveVersion).toMatch(/^sha256:/);
  });

  test('moor show renders the saved plan as text, JSON and markdown, secrets masked', async () => {
    const text = await run('show', 'p.json');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/~ ContainerGroup\/web will be updated in place/);
    expect(text.stdout).toMatch(/nginx:1\.27"? → "?nginx:1\.28/);
    expect(text.stdout).toContain('Plan: 0 to create, 1 to update, 0 to replace, 0 to delete, 0 to run.');
    const json = await run('show', 'p.json', '--output', 'json');
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.summary.update).toBe(1);
    expect(json.stdout).not.toMatch(SALTED_HASH);
    const web = doc.changes.find((c: { address: string }) => c.address === 'ContainerGroup/web');
    expect(web.desired.properties.containers[0].properties.environmentVariables[1].secureValue).toBe('(sensitive)');
    const md = await run('show', 'p.json', '--output', 'markdown');
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('ContainerGroup/web');
    expect(md.stdout).toContain('nginx:1.28');
    const bad = await run('show', 'm/web.yaml');
    expect(bad.code).toBe(1);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });

  test('plan --output json is the same document, secrets masked instead of hashed', async () => {
    const r = await run('plan', 'm', '--output', 'json');
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(expect.arrayContaining(['format', 'serial', 'manifestsDigest', 'inputs', 'changes', 'summary', 'diagnostics']));
    const web = doc.changes.find((c: { address: string }) => c.address === 'ContainerGroup/web');
    expect(web.desired.properties.containers[0].properties.environmentVariables[1].secureValue).toBe('(sensitive)');
    expect(r.stdout).not.toMatch(SALTED_HASH);
  });

  test('apply --plan refuses a plan whose manifests were edited after review, and applies nothing', async () => {
    writeFile(dir, 'm/web.yaml', groupManifest('web', { image: 'evil.example.net/miner:latest' }));
    const r = await run('apply', '--plan', 'p.json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('manifests');
    expect(r.stderr).toContain('nothing was applied');
    expect(await liveImage('web')).toBe('nginx:1.27');
  });

  test('apply --plan refuses a resource whose secret changed since the plan', async () => {
    writeFile(dir, 'm/web.yaml', groupManifest('web', { image: 'nginx:1.28' }));
    writeFile(dir, 'm/secret.txt', 'another-secret\n');
    const r = await run('apply', '--plan', 'p.json');
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toContain(
      'ContainerGroup/web: refused: the secret at /properties/containers[name=app]/properties/environmentVariables[name=DB_PASSWORD]/secureValue is not the one',
    );
    expect(r.stderr + r.stdout).not.toContain('another-secret');
    expect(await liveImage('web')).toBe('nginx:1.27');
    writeFile(dir, 'm/secret.txt', SECRET + '\n');
  });

  test('apply --plan applies exactly the reviewed plan when nothing moved', async () => {
    const r = await run('apply', '--plan', 'p.json');
    expect(r.stderr + r.stdout).toContain('Apply complete: 0 created, 1 updated');
    expect(r.code).toBe(0);
    expect(await liveImage('web')).toBe('nginx:1.28');
    const again = await run('apply', '--plan', 'p.json');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('stale');
  });

  test('a live change between plan and apply is refused for that resource only', async () => {
    writeFile(dir, 'm/web.yaml', groupManifest('web', { image: 'nginx:1.29' }));
    writeFile(dir, 'm/api.yaml', groupManifest('api', { image: 'nginx:1.29' }));
    expect((await run('plan', 'm', '--out', 'both.json')).code).toBe(0);
    await tamper('api', (b) => {
      b.tags = { owner: 'alice' };
    });
    const r = await run('apply', '--plan', 'both.json');
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toContain('ContainerGroup/api: refused: the live resource changed since the plan');
    expect(r.stderr + r.stdout).not.toContain('ContainerGroup/api: ContainerGroup/api');
    expect(await liveImage('web')).toBe('nginx:1.29');
    expect(await liveImage('api')).toBe('nginx:1.27');
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
  });

  test('a value from the environment that changed since the plan is refused, not applied', async () => {
    writeFile(dir, 'm/web.yaml', groupManifest('web', { image: '${env:WEB_IMAGE}' }));
    expect((await moor(dir, cloud, ['plan', 'm', '--out', 'env.json'], { WEB_IMAGE: 'nginx:1.30' })).code).toBe(0);
    const r = await moor(dir, cloud, ['apply', '--plan', 'env.json'], { WEB_IMAGE: 'evil.example.net/miner:latest' });
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toContain(
      'ContainerGroup/web: refused: its desired value at /properties/containers/0/properties/image is not the one reviewed',
    );
    expect(await liveImage('web')).toBe('nginx:1.29');
    writeFile(dir, 'm/web.yaml', groupManifest('web', { image: 'nginx:1.29' }));
  });

  test('apply --plan takes its paths and options from the plan only', async () => {
    expect((await run('plan', 'm', '--out', 'none.json')).code).toBe(0);
    const r = await run('apply', 'm', '--plan', 'none.json', '--prune');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('do not give PATH, --prune');
  });

  test('--replace forces a -/+ of an unchanged resource, in plan and apply', async () => {
    const before = (await cloudRequest(cloud, 'GET', ARM_PATH('web'))).body.systemData.createdAt;
    const plan = await run('plan', 'm', '--replace', 'ContainerGroup/web');
    expect(plan.stdout).toMatch(/-\/\+ ContainerGroup\/web must be replaced/);
    expect(plan.stdout).toContain('replace forced by --replace');
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 1 to replace, 0 to delete, 0 to run.');
    const apply = await run('apply', 'm', '--auto-approve', '--replace', 'ContainerGroup/web');
    expect(apply.stderr + apply.stdout).toContain('1 replaced');
    expect(apply.code).toBe(0);
    const after = (await cloudRequest(cloud, 'GET', ARM_PATH('web'))).body.systemData.createdAt;
    expect(after).not.toBe(before);
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
    const unknown = await run('plan', 'm', '--replace', 'ContainerGroup/nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--replace ContainerGroup/nope');
  });

  test('--replace of a protected resource is refused', async () => {
    writeFile(dir, 'm/web.yaml', groupManifest('web', { image: 'nginx:1.29' }).replace('  name: web', '  name: web\n  protect: true'));
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    const r = await run('apply', 'm', '--auto-approve', '--replace', 'ContainerGroup/web');
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('is protected (metadata.protect) and would be replaced');
    writeFile(dir, 'm/web.yaml', groupManifest('web', { image: 'nginx:1.29' }));
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
  });

  test('--refresh-only accepts drift into state and changes nothing live', async () => {
    await tamper('api', (b) => {
      b.properties.containers[0].properties.image = 'nginx:tampered';
      b.tags = { owner: 'alice' };
    });
    expect((await run('drift', 'm')).code).toBe(2);
    const plan = await run('plan', 'm', '--refresh-only', '--detailed-exitcode');
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('ContainerGroup/api');
    expect(plan.stdout).toContain('nginx:tampered');
    expect(plan.stdout).not.toContain('ContainerGroup/web');
    const apply = await run('apply', 'm', '--auto-approve', '--refresh-only');
    expect(apply.stdout).toContain('Refresh complete: 1 accepted from live into state');
    expect(apply.code).toBe(0);
    expect(await liveImage('api')).toBe('nginx:tampered');
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('api'))).body.tags).toEqual({ owner: 'alice' });
    expect((await run('drift', 'm')).code).toBe(0);
    // The manifest still says 1.29: restoring it is now a manifest change, not drift.
    const next = await run('plan', 'm', '--output', 'json');
    const api = JSON.parse(next.stdout).changes.find((c: { address: string }) => c.address === 'ContainerGroup/api');
    expect(api).toMatchObject({ action: 'update', drift: false });
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect(await liveImage('api')).toBe('nginx:1.29');
    const state = readFileSync(join(dir, '.moor/state.json'), 'utf8');
    expect(state).not.toContain(SECRET);
  });

  test('a saved refresh-only plan accepts the drift it showed, and nothing else', async () => {
    await tamper('api', (b) => {
      b.properties.containers[0].properties.image = 'nginx:again';
    });
    const plan = await run('plan', 'm', '--refresh-only', '--out', 'refresh.json');
    expect(plan.code).toBe(0);
    expect((await run('show', 'refresh.json')).stdout).toContain('ContainerGroup/api has drifted');
    const r = await run('apply', '--plan', 'refresh.json');
    expect(r.stdout).toContain('Refresh complete: 1 accepted from live into state');
    expect(r.code).toBe(0);
    expect((await run('drift', 'm')).code).toBe(0);
    expect(await liveImage('api')).toBe('nginx:again');
  });

  test('a saved prune is refused when the resource to delete changed since the plan', async () => {
    writeFile(dir, 'm/api.yaml', '# retired\n');
    const plan = await run('plan', 'm', '--prune', '--out', 'prune.json');
    expect(plan.stdout).toContain('1 to delete');
    const shown = JSON.parse((await run('show', 'prune.json', '--output', 'json')).stdout);
    expect(shown.changes.find((c: { address: string }) => c.address === 'ContainerGroup/api')).toMatchObject({
      action: 'delete',
      reason: 'not in manifests (--prune)',
      reasonCode: 'pruned',
    });
    await tamper('api', (b) => {
      b.tags = { owner: 'alice' };
    });
    const r = await run('apply', '--plan', 'prune.json');
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toContain('ContainerGroup/api: refused: the live resource changed since the plan');
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('api'))).status).toBe(200);
    expect((await run('plan', 'm', '--prune', '--out', 'prune.json')).code).toBe(0);
    expect((await run('apply', '--plan', 'prune.json')).code).toBe(0);
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('api'))).status).toBe(404);
  });
});
