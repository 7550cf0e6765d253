// drift compares live resources with the last apply: a manifest never applied (or whose state was
// lost) has nothing to compare with. A cron job must not read that as "all is well" without a word.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authManifest, moor, startCloud, workdir, type Cloud } from './harness.js';

describe('drift of manifests that were never applied', () => {
  let cloud: Cloud;
  beforeAll(async () => { cloud = await startCloud(); });
  afterAll(async () => { await cloud.stop(); });

  it('exits 0 but warns, per resource, that it is not in state and plan shows its create', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }), 'm/c2.yaml': authManifest('c2', { displayName: 'Two' }) });
    expect((await moor(dir, cloud, ['apply', 'm/c1.yaml', '--auto-approve'])).code).toBe(0);
    const text = await moor(dir, cloud, ['drift', 'm']);
    expect(text.code).toBe(0);
    expect(text.stdout + text.stderr).toContain('AuthContext/c2: is in the manifests but not in state (never applied, or its state was lost): drift has nothing to compare it with; moor plan shows it as a create');
    expect(text.stdout + text.stderr).not.toContain('AuthContext/c1: is in the manifests but not in state');
    const json = await moor(dir, cloud, ['drift', 'm', '--output', 'json']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as { changes: unknown[]; diagnostics: { address?: string; severity: string; message: string }[] };
    expect(doc.changes).toEqual([]);
    expect(doc.diagnostics).toContainEqual(expect.objectContaining({ address: 'AuthContext/c2', severity: 'warning' }));
  });
});
