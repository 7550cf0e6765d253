// Reading a saved plan: a file that is not there, or not a plan, is one plain sentence (no OS error text).
// Writing one: readable by its owner only, and nothing else that exists is chmodded.
import { chmodSync, lstatSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Masker } from '../../core/masker.js';
import { readPlanDocument, writeSavedPlan } from './saved-plan.js';

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

  it('says where a damaged plan stops being JSON, as the state file does', () => {
    const file = join(dir, 'damaged.json');
    writeFileSync(file, '{"format":"moor-plan/1",\n "changes": [}');
    expect(() => readPlanDocument(file)).toThrow(`cannot read saved plan ${file}: not valid JSON at line 2, column 14: unexpected '}'`);
  });
});

describe('writeSavedPlan', () => {
  const mode = (path: string) => statSync(path).mode & 0o777;

  it('refuses a directory given as --out, leaving its mode alone (it made the folder 0600)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'moor-out-folder-'));
    chmodSync(folder, 0o755);
    expect(() => writeSavedPlan(folder, { format: 'moor-plan/1' }, new Masker())).toThrow(
      `--out ${folder} is a directory; give the plan a file name, e.g. ${join(folder, 'plan.json')}`,
    );
    expect(mode(folder)).toBe(0o755);
  });

  it('replaces an existing plan with one readable by its owner only, and leaves no temporary file', () => {
    const folder = mkdtempSync(join(tmpdir(), 'moor-out-'));
    const file = join(folder, 'plan.json');
    writeFileSync(file, '{}', { mode: 0o644 });
    writeSavedPlan(file, { format: 'moor-plan/1' }, new Masker());
    expect(mode(file)).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ format: 'moor-plan/1' });
    expect(readdirSync(folder)).toEqual(['plan.json']);
  });

  it('names the plan file as given when its folder does not exist', () => {
    const file = join(dir, 'no-such-folder', 'plan.json');
    expect(() => writeSavedPlan(file, { format: 'moor-plan/1' }, new Masker())).toThrow(`cannot write ${file}: no such file or directory`);
  });

  it('never chmods what a symbolic link given as --out points to', () => {
    const folder = mkdtempSync(join(tmpdir(), 'moor-out-link-'));
    const target = join(folder, 'shared.txt');
    writeFileSync(target, 'not a plan', { mode: 0o644 });
    const link = join(folder, 'plan.json');
    symlinkSync(target, link);
    writeSavedPlan(link, { format: 'moor-plan/1' }, new Masker());
    expect(mode(target)).toBe(0o644);
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(mode(link)).toBe(0o600);
  });
});
