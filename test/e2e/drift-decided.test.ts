// Drift, decided, end to end with stacks and overlays against the local cloud over HTTP: a field
// another system owns is ignored (never drift, kept by later writes); a hand change is accepted into
// the file that set it (the prod overlay, or the stack's variable in moor.config.yaml).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudRequest, moor, putBehindMoor, startCloud, SUB, untilProvisioned, workdir, writeFile, type Cloud } from './harness.js';

const CONFIG = `# the web app's environments
stacks:
  dev:
    paths: [base, dev]
    vars: {imageTag: "1.27", rg: rg-decided-dev}
    ignore: [{kind: ContainerGroup, paths: ["/tags/*"]}]   # the cost tool tags dev
  prod:
    paths: [base, prod]
    vars: {imageTag: '1.26', rg: rg-decided-prod}   # prod is pinned
`;

const BASE = `apiVersion: moor/v1
kind: ContainerGroup
metadata:
  name: web
  # the autoscaler owns the replica count
  ignoreChanges: ["/properties/containers[name=web]/properties/environmentVariables[name=REPLICAS]"]
spec:
  subscriptionId: ${SUB}
  resourceGroup: \${var:rg}
  location: westeurope
  properties:
    osType: Linux
    containers:
      - name: web
        properties:
          image: "nginx:\${var:imageTag}"
          resources: {requests: {cpu: 1, memoryInGB: 1.5}}
          environmentVariables:
            - {name: MODE, value: production}
            - {name: API_URL, value: "\${env:API_URL}"}
            - name: REPLICAS
              value: "2"
`;

const DEV = `apiVersion: moor/v1
kind: ContainerGroup
metadata: {name: web}
spec:
  properties:
    containers:
      - name: web
        properties:
          environmentVariables:
            - {name: LOG_LEVEL, value: debug}
`;

const PROD = `# prod's own settings
apiVersion: moor/v1
kind: ContainerGroup
metadata: {name: web}
spec:
  tags: {team: web}   # who to call
  properties:
    containers:
      - name: web
        properties:
          environmentVariables:
            # quiet in prod
            - name: LOG_LEVEL
              value: warn
`;

const LONG = 240_000;
/** Every run has the environment variable the base reads. */
const ENV = { API_URL: 'https://api.example.net' };
const path = (rg: string) => `/subscriptions/${SUB}/resourceGroups/${rg}/providers/Vendor.ContainerInstance/containerGroups/web?api-version=2026-07-01`;

/** Changes the live group by hand, as someone in the portal would. */
async function handChange(
  cloud: Cloud,
  rg: string,
  change: (container: { properties: { image: string; environmentVariables: { name: string; value?: string }[] } }) => void,
): Promise<void> {
  await untilProvisioned(cloud, path(rg));
  const live = await cloudRequest(cloud, 'GET', path(rg));
  const body = { location: live.body.location, tags: live.body.tags, properties: { ...live.body.properties } };
  change(body.properties.containers[0]);
  expect((await putBehindMoor(cloud, path(rg), body)).status).toBe(200);
}

const envOf = async (cloud: Cloud, rg: string, name: string) =>
  ((await cloudRequest(cloud, 'GET', path(rg))).body.properties.containers[0].properties.environmentVariables as { name: string; value?: string }[]).find(
    (e) => e.name === name,
  )?.value;

describe('drift, decided: ignore what others own, accept a hand change into git', () => {
  let cloud: Cloud;
  let dir: string;
  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({ 'moor.config.yaml': CONFIG, 'base/web.yaml': BASE, 'dev/web.yaml': DEV, 'prod/web.yaml': PROD });
    for (const stack of ['dev', 'prod']) expect((await moor(dir, cloud, ['apply', '--stack', stack, '--auto-approve'], ENV)).code).toBe(0);
  }, LONG);
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  it(
    'a hand change to an ignored environment variable is no drift, and a later apply of another change keeps its live value',
    async () => {
      await handChange(cloud, 'rg-decided-prod', (c) => {
        c.properties.environmentVariables.find((e) => e.name === 'REPLICAS')!.value = '7';
      });
      const drift = await moor(dir, cloud, ['drift', '--stack', 'prod'], ENV);
      expect(drift.stdout).toContain('No drift');
      expect(drift.code).toBe(0);
      const plan = await moor(dir, cloud, ['plan', '--stack', 'prod', '--detailed-exitcode'], ENV);
      expect(plan.stdout).toContain('Ignored: 1 field differs live in 1 resource');
      expect(plan.code).toBe(0);
      writeFile(dir, 'prod/web.yaml', PROD.replace('{team: web}', '{team: web, tier: front}'));
      const applied = await moor(dir, cloud, ['apply', '--stack', 'prod', '--auto-approve'], ENV);
      expect(applied.code).toBe(0);
      expect(await envOf(cloud, 'rg-decided-prod', 'REPLICAS')).toBe('7');
      expect((await cloudRequest(cloud, 'GET', path('rg-decided-prod'))).body.tags).toEqual({ team: 'web', tier: 'front' });
      writeFile(dir, 'prod/web.yaml', PROD);
      expect((await moor(dir, cloud, ['apply', '--stack', 'prod', '--auto-approve'], ENV)).code).toBe(0);
      expect(await envOf(cloud, 'rg-decided-prod', 'REPLICAS')).toBe('7');
    },
    LONG,
  );

  it(
    "a stack's ignore rule for a kind: a tag added by hand in dev is no drift, and dev's next write keeps it",
    async () => {
      await untilProvisioned(cloud, path('rg-decided-dev'));
      const live = await cloudRequest(cloud, 'GET', path('rg-decided-dev'));
      expect(
        (await putBehindMoor(cloud, path('rg-decided-dev'), { location: live.body.location, tags: { costCenter: 'cc-7' }, properties: live.body.properties }))
          .status,
      ).toBe(200);
      expect((await moor(dir, cloud, ['drift', '--stack', 'dev'], ENV)).code).toBe(0);
      const plan = await moor(dir, cloud, ['plan', '--stack', 'dev', '--detailed-exitcode'], ENV);
      expect(plan.stdout).toContain('Ignored: 1 field differs live in 1 resource');
      expect(plan.code).toBe(0);
      writeFile(dir, 'dev/web.yaml', DEV.replace('value: debug', 'value: info'));
      expect((await moor(dir, cloud, ['apply', '--stack', 'dev', '--auto-approve'], ENV)).code).toBe(0);
      expect(await envOf(cloud, 'rg-decided-dev', 'LOG_LEVEL')).toBe('info');
      expect((await cloudRequest(cloud, 'GET', path('rg-decided-dev'))).body.tags).toEqual({ costCenter: 'cc-7' });
      writeFile(dir, 'dev/web.yaml', DEV);
      expect((await moor(dir, cloud, ['apply', '--stack', 'dev', '--auto-approve'], ENV)).code).toBe(0);
    },
    LONG,
  );

  it(
    "a hand change to a value prod's overlay sets is accepted into the overlay only, comments intact; --dry-run only shows it",
    async () => {
      await handChange(cloud, 'rg-decided-prod', (c) => {
        c.properties.environmentVariables.find((e) => e.name === 'LOG_LEVEL')!.value = 'error';
      });
      const dry = await moor(dir, cloud, ['drift', '--stack', 'prod', '--accept', '--dry-run'], ENV);
      expect(dry.stdout).toContain('--- a/prod/web.yaml');
      expect(dry.stdout).toContain('-              value: warn\n+              value: error');
      expect(dry.stdout).toContain('Would accept 1 drifted field of 1 resource into 1 file (prod/web.yaml)');
      expect(dry.code).toBe(0);
      expect(readFileSync(join(dir, 'prod/web.yaml'), 'utf8')).toBe(PROD);
      const accepted = await moor(dir, cloud, ['drift', '--stack', 'prod', '--accept', 'ContainerGroup/web'], ENV);
      expect(accepted.stdout).toContain('Accepted 1 drifted field of 1 resource into 1 file (prod/web.yaml)');
      expect(accepted.code).toBe(0);
      expect(readFileSync(join(dir, 'prod/web.yaml'), 'utf8')).toBe(PROD.replace('value: warn', 'value: error'));
      expect(readFileSync(join(dir, 'base/web.yaml'), 'utf8')).toBe(BASE);
      expect(readFileSync(join(dir, 'moor.config.yaml'), 'utf8')).toBe(CONFIG);
    },
    LONG,
  );

  it(
    'a hand change to an image built from nginx:${var:imageTag} is accepted into stacks.prod.vars.imageTag; then both stacks plan empty',
    async () => {
      await handChange(cloud, 'rg-decided-prod', (c) => {
        c.properties.image = 'nginx:1.25';
      });
      const accepted = await moor(dir, cloud, ['drift', '--stack', 'prod', '--accept'], ENV);
      expect(accepted.stdout).toContain('--- a/moor.config.yaml');
      expect(accepted.code).toBe(0);
      expect(readFileSync(join(dir, 'moor.config.yaml'), 'utf8')).toBe(CONFIG.replace("imageTag: '1.26'", "imageTag: '1.25'"));
      for (const stack of ['prod', 'dev']) {
        const plan = await moor(dir, cloud, ['plan', '--stack', stack, '--detailed-exitcode'], ENV);
        expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      }
      expect((await moor(dir, cloud, ['drift', '--stack', 'prod'], ENV)).code).toBe(0);
    },
    LONG,
  );

  it(
    'a value from ${env:} is never written back: accept names it and exits 1; apply reverts it',
    async () => {
      await handChange(cloud, 'rg-decided-prod', (c) => {
        c.properties.environmentVariables.find((e) => e.name === 'API_URL')!.value = 'https://elsewhere';
      });
      const before = ['moor.config.yaml', 'base/web.yaml', 'prod/web.yaml'].map((f) => readFileSync(join(dir, f), 'utf8'));
      const refused = await moor(dir, cloud, ['drift', '--stack', 'prod', '--accept'], ENV);
      expect(refused.stderr).toContain(
        'error: not accepted: ContainerGroup/web /properties/containers[name=web]/properties/environmentVariables[name=API_URL]/value: its value comes from ${env:API_URL} (base/web.yaml): change that instead',
      );
      expect(refused.stdout + refused.stderr).not.toContain('elsewhere');
      expect(refused.code).toBe(1);
      expect(['moor.config.yaml', 'base/web.yaml', 'prod/web.yaml'].map((f) => readFileSync(join(dir, f), 'utf8'))).toEqual(before);
      expect((await moor(dir, cloud, ['apply', '--stack', 'prod', '--auto-approve'], ENV)).code).toBe(0);
      expect((await moor(dir, cloud, ['plan', '--stack', 'prod', '--detailed-exitcode'], ENV)).code).toBe(0);
    },
    LONG,
  );

  it(
    'an ignore path that cannot exist in the kind is an error at its line and column',
    async () => {
      const bad = workdir({
        'moor.config.yaml': 'ignore:\n  - kind: ContainerGroup\n    paths: [/tags/*, /properties/containerz]\n',
        'm/web.yaml': BASE.replace('${var:rg}', 'rg-x').replace('nginx:${var:imageTag}', 'nginx:1').replace('REPLICAS]', 'REPLICAS]/nope'),
      });
      const r = await moor(bad, undefined, ['validate', 'm']);
      expect(r.stdout + r.stderr).toContain(
        'moor.config.yaml:3:22: error: ignore.0.paths[1]: /properties/containerz: /properties/containerz: no field containerz',
      );
      expect(r.stdout + r.stderr).toMatch(/m\/web\.yaml:6:19: error: metadata\.ignoreChanges\[0\]: .*\/nope/);
      expect(r.code).toBe(1);
    },
    LONG,
  );
});
