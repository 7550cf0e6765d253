// A saved plan's manifest paths, state and config are relative to the folder it was made in.
// apply --plan from a folder where they are not found is refused in one line naming that folder,
// before anything is read or sent; the same files checked out at another path apply it.
import { cpSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

    // A pipeline's apply job with the same files (state and the local cloud's data included) at another path.
    const checkout = join(tmpdir(), `moor-checkout-${process.pid}-${Date.now()}`);
    cpSync(dir, checkout, { recursive: true });
    const elsewhere = await moor(checkout, undefined, ['apply', '--plan', 'p.json']);
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.stdout).toContain('Apply complete: 1 created');

    const applied = await moor(dir, undefined, ['apply', '--plan', 'p.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 1 created');
  });
});
