// Where a placeholder sits in its manifest file: the value's position is known from the source
// map; a placeholder inside a longer string starts further along, so its own text is looked up
// from there. Only diagnostics ask, so files are read then, and the last few are kept: a file
// with thousands of failing placeholders is read once, and each lookup stays short.
import { readFileSync, statSync } from 'node:fs';
import type { SourceLocation } from '../../core/diagnostics.js';

/** How far after the value's start a placeholder is looked for. */
const WINDOW = 64 * 1024;
const CACHED_FILES = 8;

interface FileText {
  readonly text: string;
  readonly lineStarts: readonly number[];
}

const cache = new Map<string, FileText | undefined>();

/**
 * The location of the `nth` (0-based) occurrence of `raw` after `valueAt` in the file at `path`
 * (absolute), or `valueAt` itself when it is not there (an escaped placeholder in a quoted
 * string, a file changed meanwhile).
 */
export function locatePlaceholder(valueAt: SourceLocation, raw: string, nth: number, path: string): SourceLocation {
  const file = fileText(path);
  if (!file || valueAt.line > file.lineStarts.length) return valueAt;
  const start = file.lineStarts[valueAt.line - 1] + valueAt.col - 1;
  const window = file.text.slice(start, start + WINDOW);
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = window.indexOf(raw, at + 1);
    if (at < 0) return valueAt;
  }
  return positionOf(file, start + at, valueAt.file);
}

function fileText(path: string): FileText | undefined {
  // Keyed by size and time too: a file rewritten since (in tests, in one process) is read again.
  const info = statSync(path, { throwIfNoEntry: false });
  const key = `${path}\0${info?.size}\0${info?.mtimeMs}`;
  if (cache.has(key)) return cache.get(key);
  let entry: FileText | undefined;
  try {
    const text = readFileSync(path, 'utf8');
    const lineStarts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    entry = { text, lineStarts };
  } catch {
    entry = undefined;
  }
  if (cache.size >= CACHED_FILES) cache.delete(cache.keys().next().value as string);
  cache.set(key, entry);
  return entry;
}

function positionOf(file: FileText, offset: number, name: string): SourceLocation {
  // The last line starting at or before `offset` (binary search).
  let lo = 0;
  let hi = file.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (file.lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { file: name, line: lo + 1, col: offset - file.lineStarts[lo] + 1 };
}
