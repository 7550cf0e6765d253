// One stack selected: every summary line says which stack it speaks of (validate, plan, a saved
// plan and its show, apply, drift, markdown), and an overlay's ${file:} paths start from the
// overlay's own folder, as a manifest's start from its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moor, startCloud, SUB, workdir, type Cloud } from './harness.js';

const CONFIG = `stacks:
  dev:
    paths: [base, dev]
  prod:
    paths: [base, prod]
`;

const BASE = `apiVersion: moor/v1
kind: ContainerGroup
metadata: {name: api}
spec:
  subscriptionId: ${SUB}
  resourceGroup: rg-named
  location: westeurope
  properties:
    osType: Linux
    containers:
      - name: api
        properties:
          image: nginx:1.27
          resources: {requests: {cpu: 1, memoryInGB: 1.5}}
          environmentVariables:
            - name: DB_PASSWORD
              secureValue: \${file:secrets/db}
`;

/** An overlay that sets the secret from a file beside it (prod/secrets/db), not beside the base. */
const overlay = (resourceGroup: string, secret: string) => `apiVersion: moor/v1
kind: ContainerGroup
metadata: {name: api}
spec:
  resourceGroup: ${resourceGroup}
  properties:
    containers:
      - name: api
        properties:
          environmentVariables:
            - name: DB_PASSWORD
              secureValue: ${secret}
`;

const LONG = 240_000;

describe('one stack selected: output names it', () => {
  let cloud: Cloud;
  let dir: string;
  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({
      'moor.config.yaml': CONFIG,
      'base/api.yaml': BASE,
      'dev/api.yaml': overlay('rg-named-dev', '${file:/etc/hostname}'),
      'prod/api.yaml': overlay('rg-named-prod', '${file:secrets/db}'),
      'prod/secrets/db': 'prod-secret\n',
    });
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it(
    "an overlay's ${file:} is read beside the overlay, and its errors point into the overlay",
    async () => {
      const dev = await moor(dir, undefined, ['validate', '--stack', 'dev']);
      expect(dev.code).toBe(1);
      expect(dev.stdout).toMatch(
        /^dev\/api\.yaml:12:28: error: cannot read file \/etc\/hostname \(used by \$\{file:\/etc\/hostname\}\): an absolute path is not allowed/m,
      );
      expect(dev.stderr).toContain('stack dev: 1 error, 0 warnings');
      // secrets/db exists beside the overlay only: a plan that looked beside the base would find no file.
      const prod = await moor(dir, cloud, ['plan', '--stack', 'prod', '--out', 'prod.plan']);
      expect(prod.code, prod.stderr).toBe(0);
      expect(prod.stdout + prod.stderr).not.toContain('prod-secret');
      const apply = await moor(dir, cloud, ['apply', '--plan', 'prod.plan']);
      expect(apply.code, apply.stderr).toBe(0);
      // The value applied is the overlay's file: a base file changed meanwhile is no change to prod.
      const again = await moor(dir, cloud, ['plan', '--stack', 'prod', '--detailed-exitcode']);
      expect(again.code, again.stdout + again.stderr).toBe(0);
    },
    LONG,
  );

  it(
    'validate, plan, the saved plan, show, apply and drift name the stack on their summary lines',
    async () => {
      const validate = await moor(dir, undefined, ['validate', '--stack', 'prod']);
      expect(validate.stdout).toContain('stack prod: ok: 1 manifest in 2 files is valid');
      const plan = await moor(dir, cloud, ['plan', '--stack', 'prod', '--out', 'p.json']);
      expect(plan.stdout.trimEnd().split('\n').at(-1)).toBe('stack prod: Plan: 0 to create, 0 to update, 0 to replace, 0 to delete, 0 to run.');
      expect(plan.stderr).toContain('Saved the plan (stack prod) to p.json; apply it with: moor apply --plan p.json');
      const show = await moor(dir, undefined, ['show', 'p.json']);
      expect(show.stdout.trimEnd().split('\n').at(-1)).toBe('stack prod: Plan: 0 to create, 0 to update, 0 to replace, 0 to delete, 0 to run.');
      const markdown = await moor(dir, cloud, ['plan', '--stack', 'prod', '--output', 'markdown']);
      expect(markdown.stdout.split('\n')[0]).toBe('### moor plan · stack prod');
      const drift = await moor(dir, cloud, ['drift', '--stack', 'prod']);
      expect(drift.stdout.trimEnd().split('\n').at(-1)).toBe('stack prod: No drift: live resources match the last apply.');
    },
    LONG,
  );

  it(
    'apply names the stack on its closing line',
    async () => {
      const fixed = workdir({
        'moor.config.yaml': CONFIG,
        'base/api.yaml': BASE.replace('rg-named', 'rg-named-apply'),
        'base/secrets/db': 'x\n',
        'dev/api.yaml': 'apiVersion: moor/v1\nkind: ContainerGroup\nmetadata: {name: api}\nspec:\n  location: westeurope\n',
      });
      const apply = await moor(fixed, cloud, ['apply', '--stack', 'dev', '--auto-approve']);
      expect(apply.code, apply.stderr).toBe(0);
      expect(apply.stdout.trimEnd().split('\n').at(-1)).toBe('stack dev: Apply complete: 1 created, 0 updated, 0 replaced, 0 deleted, 0 run.');
    },
    LONG,
  );
});
