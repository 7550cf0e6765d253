// drift --output json: the summary counts the resources that did not drift as noop, as plan's JSON does.
import { describe, expect, test } from 'vitest';
import { authManifest, moor, workdir } from '../e2e/harness.js';

describe('drift --output json summary', () => {
  test('resources that did not drift are counted in summary.noop', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }), 'm/c2.yaml': authManifest('c2', { displayName: 'Two' }) });
    expect((await moor(dir, undefined, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    const plan = await moor(dir, undefined, ['plan', 'm', '--output', 'json']);
    const drift = await moor(dir, undefined, ['drift', 'm', '--output', 'json']);
    expect(drift.code, drift.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).summary).toEqual({ create: 0, update: 0, replace: 0, delete: 0, run: 0, noop: 2 });
    expect(JSON.parse(drift.stdout).summary).toEqual({ create: 0, update: 0, replace: 0, delete: 0, run: 0, noop: 2 });
  });
});
