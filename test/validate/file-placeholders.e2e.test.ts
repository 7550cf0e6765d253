// moor validate finds a ${file:} placeholder whose path plan would refuse, at the placeholder,
// without reading any file or calling any service (the built CLI, no cloud, no endpoints); a file
// that is not there (secrets are absent where a pull request is checked) is for plan to name.
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { moor, workdir } from '../e2e/harness.js';

const manifest = (values: string[]) => `apiVersion: moor/v1
kind: ContainerGroup
metadata:
  name: web
spec:
  subscriptionId: 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11
  resourceGroup: rg
  location: westeurope
  properties:
    containers:
      - name: web
        properties:
          image: nginx:1.27
          resources: {requests: {cpu: 1, memoryInGB: 1.5}}
          environmentVariables:
${values.map((v, i) => `            - name: V${i}\n              secureValue: ${v}`).join('\n')}
`;

describe('validate and ${file:} placeholders', () => {
  test('an absolute, outside or non-regular file is an error at its placeholder; exit 1; a missing one is for plan to name', async () => {
    const dir = workdir({
      'm/web.yaml': manifest(['${file:ok.txt}', '${file:missing.txt}', '${file:/etc/hostname}', '"pre-${file:../outside.txt}"', '${file:folder}']),
      'm/ok.txt': 'a-secret\n',
      'outside.txt': 'x\n',
    });
    mkdirSync(join(dir, 'm/folder'));
    const r = await moor(dir, undefined, ['validate', 'm']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        /^m\/web\.yaml:21:28: error: cannot read file \/etc\/hostname \(used by \$\{file:\/etc\/hostname\}\): an absolute path is not allowed/,
      ),
      expect.stringMatching(
        /^m\/web\.yaml:23:33: error: cannot read file \.\.\/outside\.txt \(used by \$\{file:\.\.\/outside\.txt\}\): outside the manifests' root/,
      ),
      'm/web.yaml:25:28: error: cannot read file folder (used by ${file:folder}): it is a directory; only regular files are read',
    ]);
    expect(r.stderr).toContain('3 errors, 0 warnings in 1 file');
    // validate needs no secrets (DESIGN): a pull request's check runs where the secret files are not.
    expect(r.stdout).not.toContain('missing.txt');
    expect(r.stdout + r.stderr).not.toContain('a-secret');
  });

  test('files: in the config is honoured (allow) and a readable set stays valid', async () => {
    const dir = workdir({
      'm/web.yaml': manifest(['${file:ok.txt}', '${file:../shared/key.txt}']),
      'm/ok.txt': 'a-secret\n',
      'shared/key.txt': 'k\n',
      'moor.config.yaml': 'files:\n  allow: [shared]\n',
    });
    const r = await moor(dir, undefined, ['validate', 'm']);
    expect(r.stdout).toContain('ok: 1 manifest in 1 file is valid');
    expect(r.code).toBe(0);
    // A file only the deploying user may read is plan's business too.
    chmodSync(join(dir, 'm/ok.txt'), 0o000);
    const denied = await moor(dir, undefined, ['validate', 'm']);
    expect(denied.code).toBe(0);
  });

  test('a link whose target is not there yet but would be outside the root (secrets/db -> /run/secrets/db) is an error in validate, found without the target', async () => {
    const dir = workdir({ 'm/web.yaml': manifest(['${file:secrets/db}']), 'm/ok.txt': 'x\n' });
    mkdirSync(join(dir, 'm/secrets'));
    symlinkSync(join(dir, 'not-yet/db-password'), join(dir, 'm/secrets/db'));
    const r = await moor(dir, undefined, ['validate', 'm']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(
      /cannot read file secrets\/db \(used by \$\{file:secrets\/db\}\): it links to .*not-yet\/db-password, outside the manifests' root/,
    );
    // A dangling link inside the root is only a missing file: plan's business.
    const inside = workdir({ 'm/web.yaml': manifest(['${file:secrets/db}']) });
    mkdirSync(join(inside, 'm/secrets'));
    symlinkSync(join(inside, 'm/vault/db'), join(inside, 'm/secrets/db'));
    expect((await moor(inside, undefined, ['validate', 'm'])).code).toBe(0);
  });
});
