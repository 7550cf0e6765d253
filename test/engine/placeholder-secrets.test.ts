// Placeholder values are secrets wherever they are used; where the resource lives stays in clear.
import { describe, expect, it } from 'vitest';
import { ContainerGroup } from '../../src/resources/container-group/index.js';
import { DatabaseExport } from '../../src/resources/database-export/index.js';
import { manifest } from '../../src/engine/testing/fake-kinds.js';
import { isSecretSource, scrubOutputs, sensitivePatterns } from '../../src/engine/placeholder-secrets.js';
import { scanReferences } from '../../src/core/references.js';
import { hashSensitive, isHashed, matchesSecret } from '../../src/engine/secrets.js';
import { diffResource } from '../../src/engine/diff/three-way.js';

const spec = {
  subscriptionId: '${env:SUB}',
  resourceGroup: 'rg',
  tags: { conn: 'postgres://app:${env:PW}@db', 'a/b': '${file:x}', plain: 'x', ref: '${ref:PushDataset/d#/id}' },
  properties: { containers: [{ name: 'web', properties: { image: 'nginx', command: ['run', '${file:token}'] } }] },
};
const resolved = {
  subscriptionId: 'sub-1',
  resourceGroup: 'rg',
  tags: { conn: 'postgres://app:pw-1@db', 'a/b': 'slash-secret', plain: 'x', ref: 'd1' },
  properties: { containers: [{ name: 'web', properties: { image: 'nginx', command: ['run', 'token-1'] } }] },
};

describe('sensitivePatterns', () => {
  const patterns = sensitivePatterns(ContainerGroup, manifest('ContainerGroup', 'web', spec));

  it("adds the path of every ${env:} and ${file:} value to the kind's own, but not ${ref:} values or addressing", () => {
    expect(patterns).toEqual(expect.arrayContaining([...ContainerGroup.sensitive, 'tags/conn', 'tags/*', 'properties/containers/0/properties/command/1']));
    expect(patterns).not.toContain('subscriptionId');
    expect(patterns).not.toContain('tags/ref');
  });

  it("keeps a job's project, environment and revision in clear: its runs record them", () => {
    const job = manifest('DatabaseExport', 'b', { projectId: '${file:p}', environmentId: '${file:e}', backupName: '${file:b}', revision: '${file:r}' });
    expect(sensitivePatterns(DatabaseExport, job)).toEqual(['backupName']);
  });

  it('makes state keep those values as salted hashes that still match them', () => {
    const kept = hashSensitive(resolved, patterns) as typeof resolved;
    expect(kept.subscriptionId).toBe('sub-1');
    expect(isHashed(kept.tags.conn) && matchesSecret('postgres://app:pw-1@db', kept.tags.conn)).toBe(true);
    expect(isHashed(kept.properties.containers[0].properties.command[1])).toBe(true);
    expect(JSON.stringify(kept)).not.toMatch(/pw-1|token-1|slash-secret/);
  });

  it('tells a changed secret (manifest) from a live value changed by hand (drift)', () => {
    const last = hashSensitive(resolved, patterns);
    const changed = { ...resolved, tags: { ...resolved.tags, conn: 'postgres://app:pw-2@db' } };
    const manifestChange = diffResource({ desired: changed, last, live: resolved, rules: ContainerGroup.diff, sensitive: patterns });
    expect(manifestChange).toMatchObject([{ path: '/tags/conn', cause: 'manifest', before: '(sensitive)', after: '(sensitive)' }]);
    const drift = diffResource({ desired: resolved, last, live: changed, rules: ContainerGroup.diff, sensitive: patterns });
    expect(drift).toMatchObject([{ path: '/tags/conn', cause: 'drift', before: '(sensitive)', after: '(sensitive)' }]);
    expect(diffResource({ desired: resolved, last, live: resolved, rules: ContainerGroup.diff, sensitive: patterns })).toEqual([]);
  });

  it('hides a removed value state recorded as a hash', () => {
    const last = hashSensitive(resolved, patterns);
    const { conn: _c, ...tags } = resolved.tags;
    const removed = diffResource({ desired: { ...resolved, tags }, last, live: resolved, rules: ContainerGroup.diff, sensitive: ContainerGroup.sensitive });
    expect(removed).toMatchObject([{ path: '/tags/conn', op: 'remove', before: '(sensitive)' }]);
  });
});

describe('isSecretSource', () => {
  const secret = (placeholder: string) => isSecretSource(scanReferences(placeholder).refs[0]);

  it('takes every file, and an environment variable named like a secret, for a secret', () => {
    for (const p of [
      '${file:version.txt}',
      '${env:DB_PASSWORD}',
      '${env:DB_PASS}',
      '${env:API_KEY}',
      '${env:SAS_TOKEN}',
      '${env:ClientSecret}',
      '${env:STORAGE_ACCOUNT_KEY}',
      '${env:PGPASSWORD}',
      '${env:AZURE_CREDENTIALS}',
      '${env:SSH_PRIVATE}',
    ]) {
      expect(secret(p), p).toBe(true);
    }
  });

  it('shows other environment values (an image tag, a region), as Terraform shows variables not marked sensitive', () => {
    for (const p of ['${env:IMAGE_TAG}', '${env:GIT_SHA}', '${env:REGION}', '${env:MONKEY}', '${env:PASSENGER_COUNT}', '${ref:PushDataset/d#/id}']) {
      expect(secret(p), p).toBe(false);
    }
  });

  it('leaves an image from the environment visible in the plan and in state', () => {
    const web = manifest('ContainerGroup', 'web', {
      ...spec,
      tags: {},
      properties: { containers: [{ name: 'web', properties: { image: 'app:${env:IMAGE_TAG}' } }] },
    });
    expect(sensitivePatterns(ContainerGroup, web)).toEqual(ContainerGroup.sensitive);
  });
});

describe('scrubOutputs', () => {
  it('hashes what the service echoes of a secret value and leaves the rest', () => {
    const { 'a/b': _slash, ...tags } = spec.tags;
    const patterns = sensitivePatterns(ContainerGroup, manifest('ContainerGroup', 'web', { ...spec, tags }));
    const outputs = scrubOutputs({ id: 'sub-1', tags: { conn: 'postgres://app:pw-1@db', plain: 'x' } }, resolved, patterns);
    expect(outputs.id).toBe('sub-1');
    expect(isHashed((outputs.tags as { conn: string }).conn)).toBe(true);
    expect((outputs.tags as { plain: string }).plain).toBe('x');
  });
});
