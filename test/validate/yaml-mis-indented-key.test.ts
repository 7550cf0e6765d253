// A key indented deeper than the key above it, whose value is on its own line: one error, at the
// deeper key, saying so; and in a stack, the overlays of the document that failed to parse are not
// checked alone (they would only report the base's fields as missing).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moor, ROOT, workdir } from '../e2e/harness.js';

/** The stacks example with `memoryInGB` indented two columns deeper than `cpu: ${var:cpu}` above it. */
function misIndentedStacks(): string {
  const dir = workdir();
  cpSync(join(ROOT, 'examples/stacks'), dir, { recursive: true });
  const web = join(dir, 'base/web.yaml');
  const text = readFileSync(web, 'utf8');
  const broken = text.replace('              cpu: ${var:cpu}\n              memoryInGB: 1.5', '              cpu: ${var:cpu}\n                memoryInGB: 1.5');
  expect(broken).not.toBe(text);
  writeFileSync(web, broken);
  return dir;
}

describe('a key indented under a value', () => {
  it('is one error at the deeper key naming the key it should line up with, and no error from the overlays of the broken document', async () => {
    const dir = misIndentedStacks();
    const result = await moor(dir, undefined, ['validate', '--all-stacks']);
    expect(result.code).toBe(1);
    const errors = result.stdout.split('\n').filter((l) => l.includes(': error: '));
    const expected =
      'base/web.yaml:25:17: error: invalid YAML: the key "memoryInGB" is indented deeper (column 17) than "cpu" (column 15), which already has a value; line it up with "cpu", or move the value of "cpu" to its own lines';
    expect(errors).toEqual([expected, expected]);
    expect(result.stdout).not.toContain('quote the placeholder');
    expect(result.stdout).not.toContain('missing required field');
  });

  it('keeps the other files of the stack checked: an overlay of a document that did parse still reports its errors', async () => {
    const dir = misIndentedStacks();
    writeFileSync(
      join(dir, 'prod/sales-dataset.yaml'),
      readFileSync(join(dir, 'prod/sales-dataset.yaml'), 'utf8').replace('defaultMode: Push', 'defaultMode: Pushed'),
    );
    const result = await moor(dir, undefined, ['validate', '--stack', 'prod']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/prod\/sales-dataset\.yaml:\d+:\d+: error: .*defaultMode/);
  });
});
