// Reading a saved plan: a file that is not there, or not a plan, is one plain sentence (no OS error text).
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPlanDocument } from './saved-plan.js';

const dir = mkdtempSync(join(tmpdir(), 'moor-saved-plan-'));

describe('readPlanDocument', () => {
  it('names a missing plan file in words, without the ENOENT text of Node', () => {
    const file = join(dir, 'missing.json');
    expect(() => readPlanDocument(file)).toThrow(`cannot open saved plan ${file}: no such file or directory`);
    expect(() => readPlanDocument(file)).not.toThrow(/ENOENT/);
  });

  it('names a directory given as the plan', () => {
    const sub = join(dir, 'sub');
    mkdirSync(sub, { recursive: true });
    expect(() => readPlanDocument(sub)).toThrow(/saved plan .*sub: is a directory, not a file/);
  });

  it('says a JSON file that is no plan is not one', () => {
    const file = join(dir, 'other.json');
    writeFileSync(file, '{"a":1}');
    expect(() => readPlanDocument(file)).toThrow(`${file} is not a moor plan (moor-plan/1 document)`);
  });
});
