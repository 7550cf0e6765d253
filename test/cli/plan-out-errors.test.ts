// plan --out of a plan with errors: nothing is saved, and the run says so (it used to stay silent).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { authManifest, moor, workdir } from '../e2e/harness.js';

describe('plan --out with errors', () => {
  test('saves no plan and says it was not saved', async () => {
    const dir = workdir({ 'm/c3.yaml': authManifest('c3', { displayName: '${env:MOOR_TEST_NOT_SET}' }) });
    const r = await moor(dir, undefined, ['plan', 'm', '--out', 'p.json']);
    expect(r.code).toBe(1);
    expect(existsSync(join(dir, 'p.json'))).toBe(false);
    expect(r.stderr).toContain('The plan has errors: it was not saved to p.json');
  });
});
