// A fixtures file that cannot be read (a folder, a missing file) says so, never "not valid YAML".
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFixtures } from './fixtures.js';

describe('readFixtures of a path it cannot read', () => {
  it('a folder is a read failure, not a YAML error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'moor-fixtures-dir-'));
    expect(() => readFixtures(dir)).toThrow(`fixtures file ${dir} cannot be read`);
    expect(() => readFixtures(dir)).not.toThrow(/YAML/);
  });

  it('a missing file is not found', () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'moor-fixtures-')), 'none.yaml');
    expect(() => readFixtures(missing)).toThrow(`fixtures file ${missing} is not found`);
  });
});
