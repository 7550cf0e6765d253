// Where a placeholder sits in its manifest file: the value's position is known from the source
// map; a placeholder inside a longer string starts further along, so its own text is looked up
// from there. Only diagnostics ask (rarely), so the file is read again then, not kept.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SourceLocation } from '../diagnostics.js';

/**
 * The location of the `nth` (0-based) occurrence of `raw` at or after `valueAt`, or `valueAt`
 * itself when the text cannot be found there (an escaped placeholder in a quoted string).
 */
export function locatePlaceholder(valueAt: SourceLocation, raw: string, nth: number, cwd: string): SourceLocation {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, valueAt.file), 'utf8');
  } catch {
    return valueAt;
  }
  const lines = text.split('\n');
  if (valueAt.line > lines.length) return valueAt;
  // Offset of the value's first character, then the placeholder's occurrences from there.
  let offset = lines.slice(0, valueAt.line - 1).reduce((sum, l) => sum + l.length + 1, 0) + valueAt.col - 1;
  for (let i = 0; i <= nth; i++) {
    const found = text.indexOf(raw, i === 0 ? offset : offset + 1);
    if (found < 0) return valueAt;
    offset = found;
  }
  const before = text.slice(0, offset).split('\n');
  return { file: valueAt.file, line: before.length, col: before[before.length - 1].length + 1 };
}
