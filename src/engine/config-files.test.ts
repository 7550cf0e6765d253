// The `files` key of moor.config.yaml: where `${file:}` may read. Paths are relative to the config's folder.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from './config.js';

function configIn(text: string): { dir: string; load: () => ReturnType<typeof loadConfig> } {
  const dir = mkdtempSync(join(tmpdir(), 'moor-config-'));
  mkdirSync(join(dir, 'conf'));
  writeFileSync(join(dir, 'conf/moor.yaml'), text);
  return { dir, load: () => loadConfig('conf/moor.yaml', dir, {}) };
}

describe('config files key', () => {
  test("root and allow resolve against the config file's folder; absolute paths stay", () => {
    const { dir, load } = configIn('files:\n  root: ../manifests\n  allow: [certs, /etc/ssl/ca.pem]\n  maxBytes: 2048\n');
    expect(load().files).toEqual({
      root: join(dir, 'manifests'),
      allowOutsideRoot: false,
      allow: [join(dir, 'conf/certs'), '/etc/ssl/ca.pem'],
      maxBytes: 2048,
    });
  });

  test('no files key: no policy (the defaults apply)', () => {
    expect(configIn('parallelism: 2\n').load().files).toBeUndefined();
  });

  test.each([
    ['files: yes\n', 'files must be a mapping'],
    ['files: {root: 3}\n', 'files.root must be a folder path'],
    ['files: {allowOutsideRoot: "yes"}\n', 'files.allowOutsideRoot must be true or false'],
    ['files: {allow: /etc}\n', 'files.allow must be a list'],
    ['files: {maxBytes: 0}\n', 'files.maxBytes must be a positive integer'],
    ['files: {rooot: x}\n', "unknown key 'rooot'"],
  ])('%j is refused with a clear message', (text, message) => {
    expect(() => configIn(text).load()).toThrow(message);
  });
});
