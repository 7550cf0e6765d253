// A `${file:}` that cannot be read is named in the words file errors use everywhere, not by its errno code.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPlaceholderFile } from './placeholder-file.js';

describe('readPlaceholderFile', () => {
  it('says a name too long for the file system in words, not ENAMETOOLONG', () => {
    const root = mkdtempSync(join(tmpdir(), 'moor-placeholder-file-'));
    const result = readPlaceholderFile('x'.repeat(300), root, root);
    expect(result).toMatchObject({ ok: false, message: 'the name is too long' });
  });

  it('still says a missing file is no such file', () => {
    const root = mkdtempSync(join(tmpdir(), 'moor-placeholder-file-'));
    expect(readPlaceholderFile('nope', root, root)).toMatchObject({ ok: false, message: 'no such file' });
  });
});
