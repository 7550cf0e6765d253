// state list --output json and state mv on a file state, through the built CLI.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { authManifest, groupManifest, moor, workdir, writeFile } from '../e2e/harness.js';

describe('state list --output json and state mv', () => {
  test('a renamed manifest after state mv plans no change; dependents follow the rename', async () => {
    const dir = workdir({
      'm/c1.yaml': authManifest('c1', { displayName: 'One' }),
      'm/c2.yaml': authManifest('c2', { displayName: 'Two' }, ['AuthContext/c1']),
    });
    expect((await moor(dir, undefined, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    const list = await moor(dir, undefined, ['state', 'list', '--output', 'json']);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ address: 'AuthContext/c1', kind: 'AuthContext', id: 'c1', protect: false }),
      expect.objectContaining({ address: 'AuthContext/c2', kind: 'AuthContext', id: 'c2' }),
    ]);

    const mv = await moor(dir, undefined, ['state', 'mv', 'AuthContext/c1', 'AuthContext/first']);
    expect(mv.code, mv.stderr).toBe(0);
    const state = JSON.parse(readFileSync(join(dir, '.moor/state.json'), 'utf8')) as { resources: Record<string, { name: string; dependsOn?: string[] }> };
    expect(Object.keys(state.resources).sort()).toEqual(['AuthContext/c2', 'AuthContext/first']);
    expect(state.resources['AuthContext/first'].name).toBe('first');
    expect(state.resources['AuthContext/c2'].dependsOn).toEqual(['AuthContext/first']);

    // The manifest renamed (same service id c1): nothing to do.
    const renamed = workdir({
      'm/c1.yaml': authManifest('first', { id: 'c1', displayName: 'One' }),
      'm/c2.yaml': authManifest('c2', { displayName: 'Two' }, ['AuthContext/first']),
    });
    const plan = await moor(dir, undefined, ['plan', join(renamed, 'm'), '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  test('state mv refuses another kind and a taken address', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }), 'm/c2.yaml': authManifest('c2', { displayName: 'Two' }) });
    expect((await moor(dir, undefined, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    const otherKind = await moor(dir, undefined, ['state', 'mv', 'AuthContext/c1', 'ContainerGroup/c1']);
    expect(otherKind.stderr).toContain('it can only move to AuthContext/NAME');
    expect(otherKind.stderr).toContain('AuthContext/c1 is of kind AuthContext:'); // not 'is a AuthContext'
    expect((await moor(dir, undefined, ['state', 'mv', 'AuthContext/c1', 'AuthContext/c2'])).stderr).toContain('AuthContext/c2 is already in state');
  });

  test('after state mv of a container group whose spec.name is implicit, an update changes that group, not a new one named after the new address', async () => {
    const dir = workdir({ 'm/secret.txt': 'state-mv-secret\n', 'm/web.yaml': groupManifest('web') });
    expect((await moor(dir, undefined, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    expect((await moor(dir, undefined, ['state', 'mv', 'ContainerGroup/web', 'ContainerGroup/web2'])).code).toBe(0);
    writeFile(dir, 'm/web.yaml', groupManifest('web2', { image: 'nginx:1.28' }));
    const apply = await moor(dir, undefined, ['apply', 'm', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain('Apply complete: 0 created, 1 updated');
    const usage = await moor(dir, undefined, [
      'get',
      'usage',
      '--subscription',
      '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11',
      '--location',
      'westeurope',
      '--output',
      'json',
    ]);
    const groups = (JSON.parse(usage.stdout) as { name: { value: string }; currentValue: number }[]).find((u) => u.name.value === 'ContainerGroups');
    expect(groups?.currentValue).toBe(1);
    const state = JSON.parse(readFileSync(join(dir, '.moor/state.json'), 'utf8')) as { resources: Record<string, { id: string }> };
    expect(state.resources['ContainerGroup/web2'].id).toMatch(/\/containerGroups\/web$/);
  });
});
