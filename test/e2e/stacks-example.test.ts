// examples/stacks end to end: a base and two overlays planned and applied as dev and prod against
// the local cloud over HTTP; they differ in exactly the overlaid and variable fields, and a change
// made behind prod's back is drift in prod only.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudRequest, moor, ROOT, startCloud, SUB, workdir, type Cloud } from './harness.js';

const WEB = (rg: string) => `/subscriptions/${SUB}/resourceGroups/${rg}/providers/Vendor.ContainerInstance/containerGroups/web?api-version=2026-07-01`;

/** Every leaf of a value as `path = JSON`, for comparing two plans' after-values. */
function leaves(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${path}[${(v as { name?: string } | null)?.name ?? i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, `${path}/${k}`));
  return [`${path} = ${JSON.stringify(value)}`];
}

/** These tests run the CLI many times over; a loaded machine needs minutes, not the default minute. */
const LONG = 240_000;

describe('examples/stacks: one base, a dev and a prod overlay', () => {
  let cloud: Cloud;
  let dir: string;
  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir();
    cpSync(join(ROOT, 'examples/stacks'), dir, { recursive: true });
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it(
    'dev and prod planned from one base differ in exactly the overlaid fields',
    async () => {
      const plans = await Promise.all(['dev', 'prod'].map((s) => moor(dir, cloud, ['plan', '--stack', s, '--output', 'json'])));
      const [dev, prod] = plans.map((p) => JSON.parse(p.stdout) as { changes: { address: string; after: unknown }[] });
      expect(dev.changes.map((c) => c.address)).toEqual(['AuthContext/c1', 'ContainerGroup/web']);
      expect(prod.changes.map((c) => c.address)).toEqual(['AuthContext/c1', 'ContainerGroup/web', 'PushDataset/sales']);
      const web = (p: typeof dev) => new Set(leaves(p.changes.find((c) => c.address === 'ContainerGroup/web')!.after));
      const onlyDev = [...web(dev)].filter((l) => !web(prod).has(l)).sort();
      const onlyProd = [...web(prod)].filter((l) => !web(dev).has(l)).sort();
      expect(onlyDev).toEqual([
        '/properties/containers[web]/properties/environmentVariables[DEBUG_SQL]/name = "DEBUG_SQL"',
        '/properties/containers[web]/properties/environmentVariables[DEBUG_SQL]/value = "1"',
        '/properties/containers[web]/properties/environmentVariables[FEATURE_CHECKOUT_V2]/value = "true"',
        '/properties/containers[web]/properties/environmentVariables[LOG_LEVEL]/value = "debug"',
        '/properties/containers[web]/properties/image = "registry.example.net/nginx:1.27"',
        '/properties/containers[web]/properties/resources/requests/cpu = 0.5',
        '/properties/containers[web]/properties/resources/requests/memoryInGB = 1.5',
        '/properties/ipAddress/dnsNameLabel = "shop-dev"',
        '/properties/ipAddress/ports[0]/port = 80',
        '/properties/ipAddress/type = "Public"',
        '/resourceGroup = "rg-shop-dev"',
        '/tags/env = "dev"',
      ]);
      expect(onlyProd).toEqual([
        '/properties/containers[log-shipper]/name = "log-shipper"',
        '/properties/containers[log-shipper]/properties/image = "registry.example.net/fluent-bit:3.1"',
        '/properties/containers[log-shipper]/properties/resources/requests/cpu = 0.5',
        '/properties/containers[log-shipper]/properties/resources/requests/memoryInGB = 0.5',
        '/properties/containers[web]/properties/environmentVariables[FEATURE_CHECKOUT_V2]/value = "false"',
        '/properties/containers[web]/properties/environmentVariables[LOG_LEVEL]/value = "info"',
        '/properties/containers[web]/properties/image = "registry.example.net/nginx:1.26"',
        '/properties/containers[web]/properties/resources/requests/cpu = 2',
        '/properties/containers[web]/properties/resources/requests/memoryInGB = 4',
        '/resourceGroup = "rg-shop-prod"',
        '/tags/env = "prod"',
      ]);
    },
    LONG,
  );

  it(
    'both stacks apply, each re-plans empty, and an out-of-band change to prod is drift in prod only',
    async () => {
      for (const stack of ['dev', 'prod']) {
        const applied = await moor(dir, cloud, ['apply', '--stack', stack, '--auto-approve']);
        expect(applied.code, applied.stderr).toBe(0);
      }
      for (const stack of ['dev', 'prod']) expect((await moor(dir, cloud, ['plan', '--stack', stack, '--detailed-exitcode'])).code).toBe(0);
      const live = await cloudRequest(cloud, 'GET', WEB('rg-shop-prod'));
      const put = await cloudRequest(cloud, 'PUT', WEB('rg-shop-prod'), {
        location: live.body.location,
        tags: { ...live.body.tags, owner: 'alice' },
        properties: live.body.properties,
      });
      expect(put.status).toBe(200);
      const prod = await moor(dir, cloud, ['drift', '--stack', 'prod', '--output', 'json']);
      expect(prod.code).toBe(2);
      expect(JSON.parse(prod.stdout).changes.map((c: { address: string }) => c.address)).toEqual(['ContainerGroup/web']);
      const dev = await moor(dir, cloud, ['drift', '--stack', 'dev']);
      expect(dev.code).toBe(0);
    },
    LONG,
  );

  it(
    '--all-stacks reports every stack in one JSON document, one markdown comment and text headings, exit code the worst',
    async () => {
      const json = await moor(dir, cloud, ['drift', '--all-stacks', '--output', 'json']);
      expect(json.code).toBe(2);
      const doc = JSON.parse(json.stdout);
      expect(doc.format).toBe('moor-plan/1');
      expect(doc.stacks.map((s: { stack: string; changes: unknown[] }) => [s.stack, s.changes.length])).toEqual([
        ['dev', 0],
        ['prod', 1],
      ]);
      const plan = await moor(dir, cloud, ['plan', '--all-stacks', '--output', 'json', '--detailed-exitcode']);
      expect(plan.code).toBe(2);
      const planned = JSON.parse(plan.stdout).stacks;
      expect(planned.map((s: { stack: string; summary: { update: number } }) => [s.stack, s.summary.update])).toEqual([
        ['dev', 0],
        ['prod', 1],
      ]);
      const markdown = await moor(dir, cloud, ['plan', '--all-stacks', '--output', 'markdown']);
      expect(markdown.stdout).toMatch(/^## moor plan: 2 stacks$/m);
      expect(markdown.stdout).toMatch(/^### moor plan · stack dev$/m);
      expect(markdown.stdout).toMatch(/^### moor plan · stack prod$/m);
      const text = await moor(dir, cloud, ['drift', '--all-stacks']);
      expect(text.stdout).toContain('=== stack dev ===');
      expect(text.stdout).toContain('=== stack prod ===');
      expect(text.stdout.trimEnd().split('\n').slice(-2)).toEqual([
        'stack dev: No drift: live resources match the last apply.',
        'stack prod: Drift: 1 resource drifted.',
      ]);
    },
    LONG,
  );

  it(
    'validate --all-stacks checks each stack; github annotations name the stack; one broken stack fails the run',
    async () => {
      const broken = workdir();
      cpSync(join(ROOT, 'examples/stacks'), broken, { recursive: true });
      const config = join(broken, 'moor.config.yaml');
      writeFileSync(config, readFileSync(config, 'utf8').replace('      dnsLabel: shop\n', ''));
      const r = await moor(broken, undefined, ['validate', '--all-stacks', '--output', 'github'], { GITHUB_STEP_SUMMARY: join(broken, 'summary.md') });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^stack dev: ok: \d+ manifests in \d+ files are valid$/m);
      expect(r.stdout).toMatch(/^::error file=base\/web\.yaml,line=33,col=21::variable dnsLabel is not set for stack prod .* \(stack prod\)$/m);
      expect(readFileSync(join(broken, 'summary.md'), 'utf8')).toContain('### moor validate · stack prod');
      const json = await moor(broken, undefined, ['validate', '--all-stacks', '--output', 'json']);
      expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ stack: 'prod', file: 'base/web.yaml', line: 33, col: 21, severity: 'error' })]);
    },
    LONG,
  );

  it(
    'an error in the merged result points at the overlay line that set the value, and one in the base at the base',
    async () => {
      const broken = workdir();
      cpSync(join(ROOT, 'examples/stacks'), broken, { recursive: true });
      const overlay = join(broken, 'prod/web.yaml');
      writeFileSync(overlay, readFileSync(overlay, 'utf8').replace('memoryInGB: 4', 'memoryInGB: four'));
      const base = join(broken, 'base/web.yaml');
      writeFileSync(base, readFileSync(base, 'utf8').replace('- port: 80\n          resources', '- port: 99999\n          resources'));
      const r = await moor(broken, undefined, ['validate', '--stack', 'prod']);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^prod\/web\.yaml:17:27: error: .*memoryInGB: must be a number$/m);
      expect(r.stdout).toMatch(/^base\/web\.yaml:21:21: error: .*port/m);
    },
    LONG,
  );
});
