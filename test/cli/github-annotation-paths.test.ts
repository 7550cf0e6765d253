// Annotations name files as GitHub reads them: relative to the repository's root, also when moor
// runs in a subfolder (the action's working-directory, `cd infra && moor validate m`).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { moor, workdir, INVALID_AUTH_CONTEXT } from '../e2e/harness.js';

describe('annotation file paths', () => {
  test('run in a subfolder of a git checkout, an annotation names the file from the repository root', async () => {
    const repo = workdir({ 'infra/m/bad.yaml': INVALID_AUTH_CONTEXT });
    mkdirSync(join(repo, '.git'));
    const r = await moor(join(repo, 'infra'), undefined, ['validate', 'm', '--output', 'github'], { GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error file=infra/m/bad.yaml,line=6,col=16::spec.displayName: must be a string');
    expect(r.stdout).toContain('m/bad.yaml:6:16: error'); // the text report keeps the path as given
  });

  test('outside a git checkout the path stays as given', async () => {
    const dir = workdir({ 'infra/m/bad.yaml': INVALID_AUTH_CONTEXT });
    const r = await moor(join(dir, 'infra'), undefined, ['validate', 'm', '--output', 'github'], { GITHUB_ACTIONS: 'true' });
    expect(r.stdout).toContain('::error file=m/bad.yaml,line=6,col=16::');
  });
});
