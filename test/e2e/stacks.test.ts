// Stacks end to end: one set of manifests planned and applied as dev and prod against the local
// cloud over HTTP, each with its own values and its own state, neither able to use the other's.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moor, startCloud, SUB, workdir, type Cloud } from './harness.js';

const CONFIG = `stacks:
  dev:
    paths: [manifests]
    vars: {resourceGroup: rg-stacks-dev, imageTag: "1.27", cpu: 1}
  prod:
    paths: [manifests]
    vars: {resourceGroup: rg-stacks-prod, imageTag: "1.26", cpu: 2}
  broken:
    paths: [manifests]
    vars: {resourceGroup: rg-stacks-broken, cpu: 1}
`;

const WEB = `apiVersion: moor/v1
kind: ContainerGroup
metadata: {name: web}
spec:
  subscriptionId: ${SUB}
  resourceGroup: \${var:resourceGroup}
  location: westeurope
  properties:
    osType: Linux
    containers:
      - name: web
        properties:
          image: nginx:\${var:imageTag}
          resources:
            requests:
              cpu: \${var:cpu}
              memoryInGB: 1.5
`;

/** These tests run the CLI many times over; a loaded machine needs minutes, not the default minute. */
const LONG = 240_000;

describe('stacks: one set of manifests for several environments', () => {
  let cloud: Cloud;
  let dir: string;
  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({ 'moor.config.yaml': CONFIG, 'manifests/web.yaml': WEB });
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it(
    'validate checks each stack with its own values; a missing variable is an error at its placeholder naming the stack',
    async () => {
      const dev = await moor(dir, undefined, ['validate', '--stack', 'dev']);
      expect(dev.stdout).toContain('ok: 1 manifest in 1 file is valid');
      expect(dev.code).toBe(0);
      const broken = await moor(dir, undefined, ['validate'], { MOOR_STACK: 'broken' });
      expect(broken.stdout).toContain(
        'manifests/web.yaml:13:24: error: variable imageTag is not set for stack broken (used by ${var:imageTag}; add it to stacks.broken.vars)',
      );
      expect(broken.code).toBe(1);
    },
    LONG,
  );

  it(
    'a command that reads manifests or state refuses to guess the stack',
    async () => {
      for (const args of [['validate'], ['plan'], ['state', 'list']]) {
        const r = await moor(dir, cloud, args);
        expect(r.stderr).toContain('moor.config.yaml defines stacks (dev, prod, broken): choose one with --stack NAME (or MOOR_STACK)');
        expect(r.code).toBe(1);
      }
    },
    LONG,
  );

  it(
    'dev and prod plan from one base with their own values, both apply, and each re-plans empty',
    async () => {
      const devPlan = await moor(dir, cloud, ['plan', '--stack', 'dev', '--output', 'json']);
      const prodPlan = await moor(dir, cloud, ['plan', '--stack', 'prod', '--output', 'json']);
      const after = (out: string) => JSON.parse(out).changes[0].after;
      expect(JSON.parse(devPlan.stdout).stack).toBe('dev');
      expect(after(devPlan.stdout).resourceGroup).toBe('rg-stacks-dev');
      expect(after(prodPlan.stdout).resourceGroup).toBe('rg-stacks-prod');
      expect(after(devPlan.stdout).properties.containers[0].properties.image).toBe('nginx:1.27');
      expect(after(prodPlan.stdout).properties.containers[0].properties.resources.requests.cpu).toBe(2);
      for (const stack of ['dev', 'prod']) {
        const applied = await moor(dir, cloud, ['apply', '--stack', stack, '--auto-approve']);
        expect(applied.stdout).toContain('Apply complete: 1 created');
        expect(applied.code).toBe(0);
        expect(existsSync(join(dir, `.moor/stacks/${stack}/state.json`))).toBe(true);
      }
      for (const stack of ['dev', 'prod']) {
        const again = await moor(dir, cloud, ['plan', '--stack', stack, '--detailed-exitcode']);
        expect(again.code).toBe(0);
      }
      const state = JSON.parse(readFileSync(join(dir, '.moor/stacks/prod/state.json'), 'utf8'));
      expect(state.resources['ContainerGroup/web'].id).toContain('/resourceGroups/rg-stacks-prod/');
      expect(state.extras.stack).toBe('prod');
    },
    LONG,
  );

  it(
    "a run refuses a state that records another stack's name",
    async () => {
      const r = await moor(dir, cloud, ['plan', '--stack', 'dev', '--state', '.moor/stacks/prod/state.json']);
      expect(r.stderr).toContain("state .moor/stacks/prod/state.json belongs to stack prod, not dev: refusing to use another stack's state");
      expect(r.code).toBe(1);
      const stackless = await moor(workdir(), cloud, ['state', 'list', '--state', join(dir, '.moor/stacks/prod/state.json')]);
      expect(stackless.stderr).toContain('belongs to stack prod: give --stack prod');
      expect(stackless.code).toBe(1);
    },
    LONG,
  );

  it(
    "state and outputs read the stack's own state",
    async () => {
      const listed = await moor(dir, undefined, ['state', 'list', '--stack', 'prod', '--output', 'json']);
      expect(JSON.parse(listed.stdout).map((r: { id: string }) => r.id)).toEqual([expect.stringContaining('rg-stacks-prod')]);
      const outputs = await moor(dir, undefined, ['outputs', 'ContainerGroup/web', '/name', '--stack', 'dev']);
      expect(outputs.stdout.trim()).toBe('web');
    },
    LONG,
  );

  it(
    'a saved plan belongs to its stack: apply --plan takes the stack from it and refuses another',
    async () => {
      const saved = await moor(dir, cloud, ['plan', '--stack', 'dev', '--out', 'dev-plan.json']);
      expect(saved.code).toBe(0);
      const wrong = await moor(dir, cloud, ['apply', '--plan', 'dev-plan.json', '--stack', 'prod']);
      expect(wrong.stderr).toContain('saved plan dev-plan.json is a plan of stack dev, not prod');
      expect(wrong.code).toBe(1);
      const applied = await moor(dir, cloud, ['apply', '--plan', 'dev-plan.json']);
      expect(applied.stdout).toContain('Apply complete: no changes.');
      expect(applied.code).toBe(0);
    },
    LONG,
  );
});
