// moor import, --target and Ctrl-C: adopting what exists, applying a part, stopping cleanly.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ARM_PATH,
  cloudRequest,
  groupBody,
  groupManifest,
  moor,
  putBehindMoor,
  readState,
  startCloud,
  startMoor,
  SUB,
  workdir,
  type Cloud,
} from './harness.js';

const armId = (name: string) => `/subscriptions/${SUB}/resourceGroups/rg-e2e/providers/Vendor.ContainerInstance/containerGroups/${name}`;

describe('import, target and interrupt', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ latencyMs: 20 });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('import adopts a group made outside moor; the next plan only sets what the service hides', async () => {
    const body = groupBody('set-by-hand');
    expect((await putBehindMoor(cloud, ARM_PATH('legacy'), body)).status).toBe(201);
    const dir = workdir({ 'm/secret.txt': 'from-git', 'm/legacy.yaml': groupManifest('legacy') });
    // Unmanaged, it matches the manifest wherever moor can see; the hidden secret cannot be compared.
    const before = await moor(dir, cloud, ['plan', 'm', '--output', 'json']);
    expect(JSON.parse(before.stdout).changes[0].action).toBe('no-op');
    const imported = await moor(dir, cloud, ['import', 'ContainerGroup/legacy', armId('legacy'), 'm']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`Imported ContainerGroup/legacy (${armId('legacy')})`);
    const plan = JSON.parse((await moor(dir, cloud, ['plan', 'm', '--output', 'json'])).stdout);
    expect(plan.changes[0]).toMatchObject({ address: 'ContainerGroup/legacy', action: 'update' });
    expect(plan.changes[0].patch).toEqual([
      { op: 'add', path: '/properties/containers/0/properties/environmentVariables/1/secureValue', value: '(sensitive)' },
    ]);
    expect((await moor(dir, cloud, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    expect((await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode'])).code).toBe(0);
    const again = await moor(dir, cloud, ['import', 'ContainerGroup/legacy', armId('legacy'), 'm']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already in state');
  });

  test('import of something that does not exist, or without a manifest, fails clearly', async () => {
    const dir = workdir({ 'm/secret.txt': 's', 'm/ghost.yaml': groupManifest('ghost') });
    const missing = await moor(dir, cloud, ['import', 'ContainerGroup/ghost', armId('ghost'), 'm']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('was not found');
    const noManifest = await moor(dir, cloud, ['import', 'ContainerGroup/other', armId('other'), 'm']);
    expect(noManifest.code).toBe(1);
    expect(noManifest.stderr).toContain('no manifest has the address ContainerGroup/other');
    expect(missing.stderr + noManifest.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  test('--target plans and applies only that address and what it depends on', async () => {
    const dir = workdir({
      'm/secret.txt': 's',
      'm/a.yaml': groupManifest('tgt-a'),
      'm/b.yaml': groupManifest('tgt-b'),
      'm/c.yaml': groupManifest('tgt-c').replace('  name: tgt-c\n', '  name: tgt-c\n  dependsOn: [ContainerGroup/tgt-b]\n'),
    });
    const plan = JSON.parse((await moor(dir, cloud, ['plan', 'm', '--target', 'ContainerGroup/tgt-c', '--output', 'json'])).stdout);
    expect(plan.changes.map((c: { address: string }) => c.address).sort()).toEqual(['ContainerGroup/tgt-b', 'ContainerGroup/tgt-c']);
    expect((await moor(dir, cloud, ['apply', 'm', '--target', 'ContainerGroup/tgt-c', '--auto-approve'])).code).toBe(0);
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('tgt-a'))).status).toBe(404);
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('tgt-c'))).status).toBe(200);
    const unknown = await moor(dir, cloud, ['plan', 'm', '--target', 'ContainerGroup/nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--target ContainerGroup/nope: no manifest has this address');
  });

  test('Ctrl-C stops starting changes, records those in flight, releases the lock; the next apply finishes', async () => {
    const docs = Array.from({ length: 40 }, (_, i) => groupManifest(`int-${i}`)).join('---\n');
    const dir = workdir({ 'm/secret.txt': 's', 'm/all.yaml': docs });
    // In this process, Ctrl-C reaching the run as a terminal's would (interrupted-provisioning.test.ts sends a CLI process a real SIGINT).
    const run = startMoor(dir, cloud, ['apply', 'm', '--auto-approve', '--parallelism', '2']);
    while (Object.keys((await readState(dir)).resources).length < 2) await new Promise((r) => setTimeout(r, 20));
    run.signal('SIGINT');
    const stopped = await run;
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('Interrupted');
    expect(stopped.stdout).toContain('interrupted: the steps not started were skipped');
    // A change waiting on its operation is interrupted, not failed: the operation goes on at the service.
    expect(stopped.stderr).toMatch(
      /ContainerGroup\/int-\d+: interrupted after \d+\.\ds \(what it sent goes on at the service; the next plan reads where it got to\)/,
    );
    expect(stopped.stdout).toMatch(/\d+ interrupted \(ContainerGroup\/int-/);
    expect(existsSync(join(dir, '.moor/state.json.lock'))).toBe(false);
    const rest = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
    expect(rest.code, rest.stderr).toBe(0);
    expect((await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode'])).code).toBe(0);
  });
});
