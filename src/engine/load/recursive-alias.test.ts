// A document that contains itself through an alias is a located error, never a hang.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseManifestFile } from './parse-manifest-file.js';

async function parse(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'moor-alias-'));
  try {
    writeFileSync(join(dir, 'm.yaml'), text);
    // Read whole here: these documents come from yaml (anchors), whose source maps never read the file again.
    return await parseManifestFile(join(dir, 'm.yaml'), 'm.yaml');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const HEAD = 'apiVersion: moor/v1\nkind: AuthContext\nmetadata:\n  name: c1\n';

describe('recursive aliases', () => {
  test.each([
    ['a mapping that holds itself', `${HEAD}spec: &s\n  displayName: x\n  self: *s\n`, 7, 9],
    ['a list that holds itself', `${HEAD}spec:\n  l: &l [1, *l]\n`, 6, 13],
    ['a deeper cycle', `${HEAD}spec: &top\n  a:\n    b:\n      - c: *top\n`, 8, 12],
    ['a merge of itself', `${HEAD}spec: &m\n  <<: *m\n`, 6, 7],
    ['the whole document', `&d\n${HEAD}spec: {x: *d}\n`, 6, 11],
  ])('%s is an error at the alias', async (_what, text, line, col) => {
    const r = await parse(text);
    expect(r.documents).toEqual([]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        location: { file: 'm.yaml', line, col },
        message: expect.stringMatching(/^the alias \*\w+ refers to a mapping or list that contains it/),
      }),
    ]);
  });

  test('an alias to an earlier, finished node is still fine', async () => {
    const r = await parse(`${HEAD}spec:\n  a: &a {x: 1}\n  b: *a\n`);
    expect(r.diagnostics).toEqual([]);
    expect(r.documents[0].value).toMatchObject({ spec: { a: { x: 1 }, b: { x: 1 } } });
  });

  test('100,000 aliases are checked in one pass (resolving each alias on its own would never finish)', async () => {
    const r = await parse(`${HEAD}spec:\n  a: &a x\n  b: [${Array(100_000).fill('*a').join(', ')}]\n`);
    expect(r.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/^too many alias expansions/)]);
  });

  test('one recursive document does not stop the others of the file', async () => {
    const r = await parse(`${HEAD}spec: &s {self: *s}\n---\n${HEAD.replace('c1', 'c2')}spec: {}\n`);
    expect(r.documents).toHaveLength(1);
    expect(r.diagnostics).toHaveLength(1);
  });
});
