// A --config that is a directory or missing is named in one line (exit 1), never "not valid YAML" or a stack.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { authManifest, moor, workdir } from '../e2e/harness.js';

describe('--config errors', () => {
  test('a directory is named with the file to give instead', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    mkdirSync(join(dir, 'conf'));
    for (const args of [['plan', 'm'], ['apply', 'm', '--auto-approve'], ['state', 'list']]) {
      const r = await moor(dir, undefined, [...args, '--config', 'conf']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('--config conf is a directory; give the config file, e.g. conf/moor.config.yaml');
      expect(r.stderr).not.toMatch(/YAML|EISDIR|\n\s+at /);
    }
  });

  test('a missing file is named as given and where it was looked for', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const r = await moor(dir, undefined, ['plan', 'm', '--config', 'nope.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--config nope.yaml: no such file (${join(dir, 'nope.yaml')})`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
