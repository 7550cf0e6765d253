// Policies end to end over the built CLI and the local cloud: a violating image fails validate at
// its line (also as a GitHub annotation), a replace forbidden in prod fails plan and apply refuses
// it (and what depends on it) while the rest applies, and `moor policy test` passes and fails.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudRequest, groupManifest, moor, policyManifest, ROOT, startCloud, SUB, workdir, type Cloud } from './harness.js';

const REGISTRY_POLICY = policyManifest('images-from-our-registry', '{kinds: [ContainerGroup]}', [
  {
    expression: "object.spec.properties.containers.all(c, c.properties.image.startsWith('registry.example.net/'))",
    message: 'container images must come from registry.example.net',
    fieldPath: 'spec.properties.containers',
  },
]);

const NO_REPLACE_IN_PROD = policyManifest('no-replace-in-prod', '{stacks: [prod]}', [
  {
    expression: "change == null || change.action != 'replace'",
    message: 'no replace in prod; do it in a maintenance window',
  },
]);

const STACKS = `stacks:
  dev: {paths: [m], vars: {rg: rg-pol-dev}}
  prod: {paths: [m], vars: {rg: rg-pol-prod}}
`;

/** 1-based line and column of `token` in `text`. */
function at(text: string, token: string): string {
  const before = text.slice(0, text.indexOf(token)).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

const tagsOf = async (cloud: Cloud, rg: string, name: string) =>
  (
    await cloudRequest(
      cloud,
      'GET',
      `/subscriptions/${SUB}/resourceGroups/${rg}/providers/Vendor.ContainerInstance/containerGroups/${name}?api-version=2026-07-01`,
    )
  ).body;

describe('policies end to end', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it('a violating image fails validate at the image line, in text and as a GitHub annotation', async () => {
    const app = groupManifest('web', { image: 'nginx:1.27' });
    const dir = workdir({ 'app.yaml': app, 'secret.txt': 's3cret', 'policy.yaml': REGISTRY_POLICY });
    const text = await moor(dir, undefined, ['validate']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      `app.yaml:${at(app, 'nginx:1.27')}: error: policy images-from-our-registry: container images must come from registry.example.net`,
    );
    const github = await moor(dir, undefined, ['validate', '--output', 'github']);
    const [line, col] = at(app, 'nginx:1.27').split(':');
    expect(github.stdout).toContain(
      `::error file=app.yaml,line=${line},col=${col}::policy images-from-our-registry: container images must come from registry.example.net`,
    );
    const json = JSON.parse((await moor(dir, undefined, ['validate', '--output', 'json'])).stdout);
    expect(json).toEqual([expect.objectContaining({ file: 'app.yaml', line: Number(line), col: Number(col), policy: 'images-from-our-registry' })]);
    writeFileSync(join(dir, 'app.yaml'), groupManifest('web', { image: 'registry.example.net/app:1' }));
    expect((await moor(dir, undefined, ['validate'])).code).toBe(0);
  });

  it('a replace forbidden in prod fails plan and apply refuses it and its dependent, while the rest applies (dev replaces)', async () => {
    const worker = groupManifest('worker', { image: 'registry.example.net/worker:1', resourceGroup: '${var:rg}', tags: { v: 'one' } }).replace(
      '  name: worker\n',
      '  name: worker\n  dependsOn: [ContainerGroup/web]\n',
    );
    const files = {
      'moor.config.yaml': STACKS,
      'm/secret.txt': 's3cret',
      'm/web.yaml': groupManifest('web', { image: 'registry.example.net/web:1', resourceGroup: '${var:rg}', cpu: 1 }),
      'm/api.yaml': groupManifest('api', { image: 'registry.example.net/api:1', resourceGroup: '${var:rg}', tags: { v: 'one' } }),
      'm/worker.yaml': worker,
      'm/policy.yaml': NO_REPLACE_IN_PROD,
    };
    const dir = workdir(files);
    for (const stack of ['dev', 'prod']) {
      const first = await moor(dir, cloud, ['apply', '--stack', stack, '--auto-approve']);
      expect(first.code, first.stderr + first.stdout).toBe(0);
    }
    // cpu forces a replace of web; api and worker (which depends on web) change a tag in place.
    writeFileSync(join(dir, 'm/web.yaml'), files['m/web.yaml'].replace('cpu: 1', 'cpu: 2'));
    writeFileSync(join(dir, 'm/api.yaml'), files['m/api.yaml'].replace('v: one', 'v: two'));
    writeFileSync(join(dir, 'm/worker.yaml'), worker.replace('v: one', 'v: two'));

    const plan = await moor(dir, cloud, ['plan', '--stack', 'prod']);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toMatch(
      /-\/\+ ContainerGroup\/web must be replaced[\s\S]*# .*refused by policy no-replace-in-prod: no replace in prod; do it in a maintenance window/,
    );
    expect(plan.stdout).toMatch(/~ ContainerGroup\/worker will be updated in place[\s\S]*# skipped: it depends on ContainerGroup\/web, which a policy refuses/);
    expect(plan.stdout).toContain('m/web.yaml:1:1: error: policy no-replace-in-prod: no replace in prod; do it in a maintenance window');
    expect(plan.stdout).toContain('Plan applies in part: 1 change refused by policy');
    const json = JSON.parse((await moor(dir, cloud, ['plan', '--stack', 'prod', '--output', 'json'])).stdout);
    expect(json.diagnostics.filter((d: { policy?: string }) => d.policy)).toEqual([
      expect.objectContaining({ policy: 'no-replace-in-prod', address: 'ContainerGroup/web', file: 'm/web.yaml', line: 1, col: 1, severity: 'error' }),
    ]);
    // Machines read why by code: the refused replace and the update held back behind it.
    const codes = (changes: { address: string; reasonCode?: string }[]) => Object.fromEntries(changes.map((c) => [c.address, c.reasonCode ?? null]));
    const refusedCodes = { 'ContainerGroup/web': 'policy-refused', 'ContainerGroup/worker': 'held-back', 'ContainerGroup/api': null };
    expect(codes(json.changes)).toEqual(refusedCodes);
    const jsonl = (await moor(dir, cloud, ['plan', '--stack', 'prod', '--output', 'jsonl'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(codes(jsonl.filter((e) => e.type === 'planned_change'))).toEqual(refusedCodes);

    const apply = await moor(dir, cloud, ['apply', '--stack', 'prod', '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain('refused by policy no-replace-in-prod');
    expect((await tagsOf(cloud, 'rg-pol-prod', 'api')).tags).toEqual({ v: 'two' });
    expect((await tagsOf(cloud, 'rg-pol-prod', 'worker')).tags).toEqual({ v: 'one' });
    expect((await tagsOf(cloud, 'rg-pol-prod', 'web')).properties.containers[0].properties.resources.requests.cpu).toBe(1);

    const dev = await moor(dir, cloud, ['apply', '--stack', 'dev', '--auto-approve']);
    expect(dev.code, dev.stdout + dev.stderr).toBe(0);
    expect((await tagsOf(cloud, 'rg-pol-dev', 'web')).properties.containers[0].properties.resources.requests.cpu).toBe(2);
  }, 180_000);

  it('apply --plan refuses a change a policy added since the plan forbids, and applies the rest', async () => {
    const files = {
      'moor.config.yaml': STACKS,
      'm/secret.txt': 's3cret',
      'm/web.yaml': groupManifest('saved-web', { image: 'registry.example.net/web:1', resourceGroup: 'rg-pol-saved', cpu: 1 }),
      'm/api.yaml': groupManifest('saved-api', { image: 'registry.example.net/api:1', resourceGroup: 'rg-pol-saved', tags: { v: 'one' } }),
    };
    const dir = workdir(files);
    expect((await moor(dir, cloud, ['apply', '--stack', 'prod', '--auto-approve'])).code).toBe(0);
    writeFileSync(join(dir, 'm/web.yaml'), files['m/web.yaml'].replace('cpu: 1', 'cpu: 2'));
    writeFileSync(join(dir, 'm/api.yaml'), files['m/api.yaml'].replace('v: one', 'v: two'));
    expect((await moor(dir, cloud, ['plan', '--stack', 'prod', '--out', 'plan.json'])).code).toBe(0);
    writeFileSync(join(dir, 'm/policy.yaml'), NO_REPLACE_IN_PROD);
    const apply = await moor(dir, cloud, ['apply', '--stack', 'prod', '--plan', 'plan.json']);
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain('refused by policy no-replace-in-prod');
    expect((await tagsOf(cloud, 'rg-pol-saved', 'saved-api')).tags).toEqual({ v: 'two' });
    expect((await tagsOf(cloud, 'rg-pol-saved', 'saved-web')).properties.containers[0].properties.resources.requests.cpu).toBe(1);
  }, 120_000);

  it('moor policy test passes the examples, and fails a case that expects the wrong result, at its line', async () => {
    const dir = workdir();
    cpSync(join(ROOT, 'examples/stacks'), dir, { recursive: true });
    const ok = await moor(dir, undefined, ['policy', 'test', '--stack', 'prod']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('PASS  Policy/images-from-our-registry: an image from Docker Hub fails');
    expect(ok.stdout).toContain('4 tests, 0 failed');
    const file = join(dir, 'base/policies.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      text
        .replace('    - name: a public IP in dev passes', '    - name: a public IP in dev fails')
        .replace(/(a public IP in dev fails[\s\S]*?expect: )pass/, '$1fail'),
    );
    const failed = await moor(dir, undefined, ['policy', 'test', '--stack', 'prod']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('FAIL  Policy/no-public-ip-in-prod: a public IP in dev fails');
    expect(failed.stdout).toMatch(
      new RegExp(`base/policies\\.yaml:${at(text, '    - name: a public IP in dev passes').split(':')[0]}:7: expected it to fail, but every rule held`),
    );
    expect(failed.stdout).toContain('4 tests, 1 failed');
  });
});
