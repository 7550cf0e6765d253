// A saved plan is tied to the folder it was made in (as a Terraform plan file is to its working
// directory): its manifest paths, state and config are relative to it. apply --plan elsewhere is
// refused in one line naming that folder, before anything is read or sent.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { authManifest, moor, workdir } from '../e2e/harness.js';

describe('apply --plan from another folder', () => {
  test('is refused naming the folder the plan was made in; from there it applies', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const made = await moor(dir, undefined, ['plan', 'm', '--out', 'p.json']);
    expect(made.code, made.stderr).toBe(0);
    mkdirSync(join(dir, 'elsewhere'));

    const refused = await moor(join(dir, 'elsewhere'), undefined, ['apply', '--plan', '../p.json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`saved plan ../p.json was made in ${dir}; run apply --plan from there`);
    expect(refused.stderr).not.toMatch(/no such file|\n\s+at /);

    const applied = await moor(dir, undefined, ['apply', '--plan', 'p.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 1 created');
  });
});
