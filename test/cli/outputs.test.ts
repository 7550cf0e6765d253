// moor outputs ADDR [POINTER]: a resource's outputs from state after an apply, through the built CLI.
import { describe, expect, test } from 'vitest';
import { authManifest, moor, workdir } from '../e2e/harness.js';

describe('moor outputs', () => {
  test('prints every output, the JSON object, and one value raw by pointer', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One two', isAvailable: true }) });
    expect((await moor(dir, undefined, ['apply', 'm', '--auto-approve'])).code).toBe(0);

    const text = await moor(dir, undefined, ['outputs', 'AuthContext/c1']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('displayName = "One two"\n');
    expect(text.stdout).toContain('isAvailable = true\n');

    const json = await moor(dir, undefined, ['outputs', 'AuthContext/c1', '--output', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 'c1', displayName: 'One two', isAvailable: true });

    const raw = await moor(dir, undefined, ['outputs', 'AuthContext/c1', '/displayName']);
    expect(raw.code, raw.stderr).toBe(0);
    expect(raw.stdout).toBe('One two\n');
    expect((await moor(dir, undefined, ['outputs', 'AuthContext/c1#/isAvailable'])).stdout).toBe('true\n');
    expect((await moor(dir, undefined, ['outputs', 'AuthContext/c1', '/id', '--output', 'json'])).stdout).toBe('"c1"\n');
  });

  test('a missing value, a missing address and a bad address are one-line errors (exit 1)', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    expect((await moor(dir, undefined, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    const cases: [string[], string][] = [
      [['outputs', 'AuthContext/c1', '/nope'], 'AuthContext/c1 has no output at /nope; it has'],
      [['outputs', 'AuthContext/zz'], 'AuthContext/zz is not in state'],
      [['outputs', 'nonsense'], 'nonsense is not an address'],
      [['outputs', 'AuthContext/c1', 'displayName'], 'displayName is not a JSON pointer'],
    ];
    for (const [args, message] of cases) {
      const r = await moor(dir, undefined, args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
