// moor policy test needs no --stack: its cases carry their own stack. On a config with stacks and
// none chosen it runs the tests of every stack's policies, a Policy shared by the stacks once.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moor, ROOT, workdir } from './harness.js';

describe('moor policy test without --stack', () => {
  it("runs the stacks' policies' tests once each, as with --stack", async () => {
    const dir = workdir();
    cpSync(join(ROOT, 'examples/stacks'), dir, { recursive: true });
    const all = await moor(dir, undefined, ['policy', 'test']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('PASS  Policy/no-public-ip-in-prod: a public IP in dev passes');
    expect(all.stdout).toContain('4 tests, 0 failed');
    const one = await moor(dir, undefined, ['policy', 'test', '--stack', 'dev']);
    expect(one.stdout).toBe(all.stdout);
  });
});
