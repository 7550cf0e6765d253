// A --config that is a directory or missing is named in one line (exit 1), never "not valid YAML" or a stack.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { authManifest, moor, workdir } from '../e2e/harness.js';

describe('--config errors', () => {
  test('a directory is named with the file to give instead', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    mkdirSync(join(dir, 'conf'));
    for (const args of [
      ['plan', 'm'],
      ['apply', 'm', '--auto-approve'],
      ['state', 'list'],
    ]) {
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

  test('a value from MOOR_CONFIG is named as the variable, not as --config', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    mkdirSync(join(dir, 'conf'));
    const isDir = await moor(dir, undefined, ['plan', 'm'], { MOOR_CONFIG: 'conf' });
    expect(isDir.code).toBe(1);
    expect(isDir.stderr).toContain('MOOR_CONFIG=conf is a directory; give the config file, e.g. conf/moor.config.yaml');
    expect(isDir.stderr).not.toContain('--config');
    const missing = await moor(dir, undefined, ['validate', 'm'], { MOOR_CONFIG: 'nope.yaml' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`MOOR_CONFIG=nope.yaml: no such file (${join(dir, 'nope.yaml')})`);
    // The command line wins over the variable, and is named as such.
    const flag = await moor(dir, undefined, ['plan', 'm', '--config', 'conf'], { MOOR_CONFIG: 'nope.yaml' });
    expect(flag.stderr).toContain('--config conf is a directory');
  });
});
