// Test helpers: write manifests to a temp folder, validate them, and find where a token sits.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadAndValidate } from '../../src/engine/validate/index.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { BUILT_IN_KINDS } from '../../src/resources/registry.js';

/** Writes `files` (relative path -> text or bytes) into a new temp folder and returns it. */
export function writeTree(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'moor-validate-'));
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return dir;
}

/** Validates one YAML text as `m.yaml`; diagnostics carry the absolute-free path 'm.yaml'. */
export async function validateText(text: string, extra: Record<string, string> = {}): Promise<Diagnostic[]> {
  const dir = writeTree({ 'm.yaml': text, ...extra });
  return (await loadAndValidate(['.'], BUILT_IN_KINDS, { cwd: dir })).diagnostics;
}

/** 1-based line and column of the `nth` occurrence of `token` in `text`. */
export function positionOf(text: string, token: string, nth = 1): { line: number; col: number } {
  let index = -1;
  for (let i = 0; i < nth; i++) {
    index = text.indexOf(token, index + 1);
    if (index < 0) throw new Error(`token ${JSON.stringify(token)} not in the text`);
  }
  const before = text.slice(0, index).split('\n');
  return { line: before.length, col: before[before.length - 1].length + 1 };
}

/** A short view of diagnostics for assertions and failure messages. */
export function brief(diags: readonly Diagnostic[]): { severity: string; line?: number; col?: number; message: string }[] {
  return diags.map((d) => ({ severity: d.severity, line: d.location?.line, col: d.location?.col, message: d.message }));
}

/** Replaces `from` (which must occur) with `to`. */
export function mutate(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`mutation source ${JSON.stringify(from)} not in the text`);
  return text.replace(from, to);
}
