// The small things a new user met: one error prefix style, one line for a path that is not there,
// examples in the help of state subcommands, and a header row in state list.
import { describe, expect, it } from 'vitest';
import { authManifest, moor, workdir } from '../e2e/harness.js';

describe('small items of the GitOps journey', () => {
  it('moor plan of a path that is not there is one error line, in the same "error:" style as a parse error', async () => {
    const dir = workdir();
    const r = await moor(dir, undefined, ['plan', 'nonexistent']);
    expect(r.code).toBe(1);
    const errors = (r.stdout + r.stderr).split('\n').filter((l) => /error/i.test(l));
    expect(errors).toEqual(['error: nonexistent: no such file or directory']);
    const parse = await moor(dir, undefined, ['plan', '--bogus']);
    expect(parse.stderr).toMatch(/^error: unknown option '--bogus'/);
    const user = await moor(dir, undefined, ['apply', 'm']);
    expect(user.stderr).toMatch(/^error: apply needs --auto-approve/m);
  });

  it('state list and state mv --help end with examples', async () => {
    for (const sub of ['list', 'mv']) {
      const r = await moor(workdir(), undefined, ['state', sub, '--help']);
      expect(r.stdout).toMatch(new RegExp(`\\nExamples:\\n {2}\\$ moor state ${sub}\\b`));
    }
  });

  it('state list has a header row', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    expect((await moor(dir, undefined, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    const r = await moor(dir, undefined, ['state', 'list']);
    expect(
      r.stdout
        .split('\n')
        .slice(0, 2)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(['ADDRESS', 'AuthContext/c1']);
  });
});
