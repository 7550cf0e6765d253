// Placeholders that plan could not use are found by validate, at the placeholder: one nested in
// another (only ${var:} is filled in first), and an ${env:} filling a number or boolean field,
// which validate types as plan does (it is never a secret) and checks by the field's rules.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cloudRequest, groupManifest, moor, startCloud, workdir, AUTH_PATH, ARM_PATH, type Cloud } from './harness.js';

const withImage = (image: string) => groupManifest('web', { image });
const withCpu = (cpu: string) => groupManifest('web').replace('cpu: 1', `cpu: ${cpu}`);

describe('placeholders validate finds before plan', { timeout: 180_000 }, () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.stop();
  });

  test('a placeholder nested in another is an error at it, in validate and in plan, and nothing is sent', async () => {
    const dir = workdir({ 'm/web.yaml': withImage('nginx:${file:values/${env:ENV}/tag}'), 'm/secret.txt': 's3cret\n', 'm/values/dev/tag': '1.27\n' });
    const r = await moor(dir, undefined, ['validate', 'm'], { ENV: 'dev' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'm/web.yaml:14:24: error: spec.properties.containers[0].properties.image: nested placeholder ${file:values/${env:ENV}/tag}: a placeholder cannot hold another (only ${var:} is filled in first); write the path or name out, or take it from a stack variable\n',
    );
    const plan = await moor(dir, cloud, ['plan', 'm'], { ENV: 'dev' });
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain('m/web.yaml:14:24: error: spec.properties.containers[0].properties.image: nested placeholder');
  });

  test('a stack variable inside a placeholder is filled in first, so ${file:values/${var:env}/tag} is valid and plans', async () => {
    const dir = workdir({
      'moor.config.yaml': 'stacks:\n  dev:\n    paths: [m]\n    vars: {env: dev}\n',
      'm/web.yaml': withImage('nginx:${file:values/${var:env}/tag}'),
      'm/secret.txt': 's3cret\n',
      'm/values/dev/tag': '1.27\n',
    });
    const r = await moor(dir, undefined, ['validate', '--stack', 'dev']);
    expect(r.stdout).toContain('ok: 1 manifest');
    const apply = await moor(dir, cloud, ['apply', '--stack', 'dev', '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('web'))).body.properties.containers[0].properties.image).toBe('nginx:1.27');
  });

  test('cpu: ${env:CPU}: not set, or not a number, is an error at the placeholder; a number validates, plans and applies as a number', async () => {
    const dir = workdir({ 'm/web.yaml': withCpu('${env:CPU}'), 'm/secret.txt': 's3cret\n' });
    const unset = await moor(dir, undefined, ['validate', 'm']);
    expect(unset.code).toBe(1);
    expect(unset.stdout).toBe(
      'm/web.yaml:17:20: error: spec.properties.containers[0].properties.resources.requests.cpu: ${env:CPU} fills a number field and CPU is not set: validate types it as plan will (it is no secret); set CPU where validate runs, or write the value\n',
    );
    const word = await moor(dir, undefined, ['validate', 'm'], { CPU: 'two' });
    expect(word.code).toBe(1);
    expect(word.stdout).toBe(
      'm/web.yaml:17:20: error: spec.properties.containers[0].properties.resources.requests.cpu: must be a number, got "two" (from ${env:CPU})\n',
    );
    const planWord = await moor(dir, cloud, ['plan', 'm'], { CPU: 'two' });
    expect(planWord.code).toBe(1);
    expect(planWord.stdout + planWord.stderr).toContain(
      'm/web.yaml:17:20: error: spec.properties.containers[0].properties.resources.requests.cpu: must be a number, got "two" (from ${env:CPU})',
    );

    expect((await moor(dir, undefined, ['validate', 'm'], { CPU: '2' })).code).toBe(0);
    const apply = await moor(dir, cloud, ['apply', 'm', '--auto-approve'], { CPU: '2' });
    expect(apply.code, apply.stderr).toBe(0);
    const live = await cloudRequest(cloud, 'GET', ARM_PATH('web'));
    expect(live.body.properties.containers[0].properties.resources.requests.cpu).toBe(2);
    const again = await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode'], { CPU: '2' });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  test('a typed value is checked by the field rules, and a boolean takes true or false', async () => {
    const dir = workdir({
      'm/web.yaml': withCpu('1').replace('- port: 80', '- port: ${env:PORT}'),
      'm/secret.txt': 's3cret\n',
      'm/c1.yaml': 'apiVersion: moor/v1\nkind: AuthContext\nmetadata:\n  name: c1\nspec:\n  displayName: One\n  isAvailable: ${env:AVAILABLE}\n',
    });
    const bad = await moor(dir, undefined, ['validate', 'm'], { PORT: '70000', AVAILABLE: 'yes' });
    expect(bad.code).toBe(1);
    const lines = bad.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('m/c1.yaml:7:16: error: spec.isAvailable: must be true or false, got "yes" (from ${env:AVAILABLE})');
    expect(lines[1]).toMatch(/^m\/web\.yaml:20:21: error: spec\.properties\.containers\[0\]\.properties\.ports\[0\]\.port: .* \(from \$\{env:PORT\}\)$/);
    const good = await moor(dir, undefined, ['validate', 'm'], { PORT: '8080', AVAILABLE: 'true' });
    expect(good.stdout).toContain('ok: 2 manifests');
    const apply = await moor(dir, cloud, ['apply', 'm/c1.yaml', '--auto-approve'], { AVAILABLE: 'true' });
    expect(apply.code, apply.stderr).toBe(0);
    expect((await cloudRequest(cloud, 'GET', AUTH_PATH('c1'))).body.isAvailable).toBe(true);
  });
});
