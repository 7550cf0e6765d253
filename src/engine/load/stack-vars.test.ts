// `${var:NAME}` placeholders: a stack's values put in while loading, typed when they are the whole value.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { SourceMap } from '../manifest.js';
import { substituteStackVars } from './stack-vars.js';

const STACK = { name: 'dev', vars: { tag: '1.27', replicas: 3, public: true } };

/** A source map that places every value at line 2, column 7 of `file`, where the text puts it. */
function sourceOf(text: string): { source: SourceMap } {
  const path = join(mkdtempSync(join(tmpdir(), 'moor-vars-')), 'm.yaml');
  writeFileSync(path, text);
  return { source: { file: 'm.yaml', path, locate: () => ({ file: 'm.yaml', line: 2, col: 7 }) } };
}

describe('stack variables', () => {
  test("a placeholder that is the whole value keeps the variable's type; inside a string it is its text", () => {
    const { source } = sourceOf('');
    const { value: out, diagnostics } = substituteStackVars(
      { spec: { n: '${var:replicas}', on: '${var:public}', image: 'nginx:${var:tag}-${var:replicas}', plain: 'x' } },
      source,
      STACK,
    );
    expect(out).toEqual({ spec: { n: 3, on: true, image: 'nginx:1.27-3', plain: 'x' } });
    expect(diagnostics).toEqual([]);
  });

  test('a document without variables is returned as it is', () => {
    const { source } = sourceOf('');
    const doc = { spec: { list: [{ a: 'b' }] } };
    expect(substituteStackVars(doc, source, STACK).value).toBe(doc);
  });

  test('a missing variable is an error at the placeholder naming the stack; the value stays as written', () => {
    const { source } = sourceOf('spec:\n  rg: rg-${var:region}\n');
    const { value: out, diagnostics } = substituteStackVars({ spec: { rg: 'rg-${var:region}' } }, source, STACK);
    expect(out).toEqual({ spec: { rg: 'rg-${var:region}' } });
    expect(diagnostics).toEqual([
      {
        severity: 'error',
        code: 'stack.var',
        location: { file: 'm.yaml', line: 2, col: 10 },
        message: 'variable region is not set for stack dev (used by ${var:region}; add it to stacks.dev.vars)',
      },
    ]);
  });

  test('without a stack a variable is an error that says how to define one', () => {
    const { source } = sourceOf('');
    const { diagnostics } = substituteStackVars({ a: '${var:tag}' }, source, undefined);
    expect(diagnostics[0].message).toContain('no stack is selected');
  });

  test('a value that holds `$&` or `$$` is put in literally', () => {
    const { source } = sourceOf('');
    expect(substituteStackVars({ a: 'x${var:v}y' }, source, { name: 'dev', vars: { v: '$&$$' } }).value).toEqual({ a: 'x$&$$y' });
  });
});
