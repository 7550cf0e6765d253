// Loading never crashes or hangs: broken, empty, binary, huge, alias-bomb and deeply nested files are diagnostics.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadManifests } from '../../src/engine/load/index.js';
import { BUILT_IN_KINDS } from '../../src/resources/registry.js';
import { brief, validateText, writeTree } from './helpers.js';

const OK = `apiVersion: moor/v1
kind: AuthContext
metadata:
  name: c1
spec:
  displayName: one
`;

async function loadTree(files: Record<string, string | Buffer>) {
  const dir = writeTree(files);
  return loadManifests(['.'], BUILT_IN_KINDS, { cwd: dir });
}

describe('loading robustness', () => {
  test('broken YAML is an error at the line and column the parser names', async () => {
    const diags = brief(await validateText('apiVersion: moor/v1\nkind: [AuthContext\nmetadata: {}\n'));
    expect(diags).toHaveLength(1);
    expect(diags[0]).toMatchObject({ severity: 'error', line: 3 });
    expect(diags[0].message).toMatch(/^invalid YAML: /);
  });

  test('a duplicate key is an error at the second key', async () => {
    const text = OK.replace('  displayName: one\n', '  displayName: one\n  displayName: two\n');
    expect(brief(await validateText(text))).toEqual([
      { severity: 'error', line: 7, col: 3, message: 'duplicate key "displayName": a key may appear only once in a mapping' },
    ]);
  });

  test('an empty file is a warning, not an error', async () => {
    expect(brief(await validateText(''))).toEqual([{ severity: 'warning', line: 1, col: 1, message: 'no manifests in this file' }]);
    expect(brief(await validateText('# only a comment\n---\n'))).toEqual([{ severity: 'warning', line: 1, col: 1, message: 'no manifests in this file' }]);
  });

  test('a binary file is refused as not text', async () => {
    const r = await loadTree({ 'bin.yaml': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]) });
    expect(brief(r.diagnostics)).toEqual([{ severity: 'error', line: 1, col: 1, message: 'not a text file (it contains NUL bytes)' }]);
  });

  test('a 5 MB file is refused without being parsed, naming its size and the limit', async () => {
    const big = OK + `# ${'x'.repeat(5 * 1000 * 1000)}\n`;
    const r = await loadTree({ 'big.yaml': big });
    expect(r.manifests).toEqual([]);
    expect(brief(r.diagnostics)).toEqual([
      { severity: 'error', line: 1, col: 1, message: 'file is 4.8 MiB, over the 4 MiB limit for a manifest file; not read' },
    ]);
  });

  test('an alias bomb is refused', async () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
      'f: [*e, *e, *e, *e, *e, *e, *e, *e, *e]',
    ].join('\n');
    const diags = brief(await validateText(bomb));
    expect(diags).toEqual([{ severity: 'error', line: 1, col: 1, message: 'too many alias expansions (over 100): refusing a possible alias bomb' }]);
  });

  test('10,000-deep flow nesting is refused at the bracket that goes too deep', async () => {
    const text = `spec: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`;
    const diags = brief(await validateText(text));
    expect(diags).toEqual([{ severity: 'error', line: 1, col: 7 + 255, message: 'nesting deeper than 256 levels; not parsed' }]);
  });

  test('10,000-deep block nesting is refused too', async () => {
    const text = `spec:\n  ${'- '.repeat(10_000)}x\n`;
    const diags = brief(await validateText(text));
    expect(diags).toHaveLength(1);
    expect(diags[0]).toMatchObject({ severity: 'error', line: 2, message: 'nesting deeper than 256 levels; not parsed' });
  });

  test.each([
    {
      reason: 'a YAML tag that makes binary data',
      value: '!!binary aGVsbG8=',
      col: 25,
      message: 'spec.displayName: not a plain value (a YAML tag made it binary data); use a string, number, boolean, list or mapping',
    },
    { reason: 'an infinite number', value: '.inf', col: 16, message: 'spec.displayName: not a finite number (.inf and .nan are not allowed)' },
  ])('$reason is refused at the value', async ({ value, col, message }) => {
    const diags = brief(await validateText(OK.replace('displayName: one', `displayName: ${value}`)));
    expect(diags).toEqual([{ severity: 'error', line: 6, col, message }]);
  });

  test('an alias to an unknown anchor is an error at the document', async () => {
    expect(brief(await validateText('a: *nowhere\n'))).toEqual([
      { severity: 'error', line: 1, col: 1, message: 'cannot read this document: Unresolved alias (the anchor must be set before the alias): nowhere' },
    ]);
  });

  test('a file of 400,000 tiny documents is refused quickly', async () => {
    expect(brief(await validateText('a: 1\n---\n'.repeat(400_000)))).toEqual([
      { severity: 'error', line: 1, col: 1, message: 'more than 10,000 documents in one file; not parsed' },
    ]);
  });

  test('many broken documents are each reported at their own line', async () => {
    const diags = await validateText('a: 1\n---\n'.repeat(2000));
    // Each {a: 1} lacks apiVersion, kind and metadata and has an unknown key: four errors.
    expect(diags).toHaveLength(8000);
    expect(diags[diags.length - 1].location).toEqual({ file: 'm.yaml', line: 3999, col: 1 });
  });

  test('a document that is not a mapping is an error', async () => {
    expect(brief(await validateText('- just\n- a list\n'))).toEqual([
      { severity: 'error', line: 1, col: 1, message: 'a manifest must be a mapping with apiVersion, kind, metadata and spec' },
    ]);
  });
});

describe('finding files', () => {
  test('folders are read recursively and sorted; node_modules, dot-folders and other files are skipped', async () => {
    const r = await loadTree({
      'b.yaml': OK.replace('c1', 'c2'),
      'a/x.yml': OK.replace('c1', 'c3'),
      'a/notes.txt': 'not yaml',
      'node_modules/p/m.yaml': OK.replace('c1', 'c4'),
      '.hidden/m.yaml': OK.replace('c1', 'c5'),
    });
    expect(r.manifests.map((m) => m.address)).toEqual(['AuthContext/c3', 'AuthContext/c2']);
    expect(r.manifests.map((m) => m.source.file)).toEqual(['a/x.yml', 'b.yaml']);
    expect(r.diagnostics).toEqual([]);
  });

  test('a linked manifest file is read, a linked folder is not followed', async () => {
    const dir = writeTree({ 'real/m.yaml': OK });
    symlinkSync(join(dir, 'real/m.yaml'), join(dir, 'link.yaml'));
    symlinkSync(dir, join(dir, 'real/loop'));
    const r = await loadManifests([dir], BUILT_IN_KINDS, { cwd: process.cwd() });
    expect(r.manifests.map((m) => m.address)).toEqual(['AuthContext/c1', 'AuthContext/c1']);
  });

  test('documents of one file keep their own positions', async () => {
    const r = await loadTree({ 'm.yaml': `${OK}---\n${OK.replace('c1', 'c2')}` });
    expect(r.manifests.map((m) => m.source.locate(['metadata', 'name']))).toEqual([
      { file: 'm.yaml', line: 4, col: 9 },
      { file: 'm.yaml', line: 11, col: 9 },
    ]);
  });

  test('a folder without manifests is a warning', async () => {
    const r = await loadTree({ 'notes.txt': 'x' });
    expect(brief(r.diagnostics)).toEqual([{ severity: 'warning', line: undefined, col: undefined, message: 'no *.yaml or *.yml files under .' }]);
  });

  test('a path that does not exist is an error', async () => {
    const r = await loadManifests(['/nonexistent/moor/path'], BUILT_IN_KINDS, { cwd: process.cwd() });
    expect(brief(r.diagnostics)).toEqual([
      { severity: 'error', line: undefined, col: undefined, message: '/nonexistent/moor/path: no such file or directory' },
    ]);
  });
});
