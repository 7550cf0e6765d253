// Escaping for GitHub-flavoured markdown: table cells, code spans, fenced blocks and inline HTML.
import { lineText } from '../../core/foreign-text.js';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Plain text safe in a paragraph or table cell: one line (lineText), no HTML, no markdown syntax, no cell break. */
export function inlineText(text: string): string {
  return escapeHtml(lineText(text)).replace(/[\\`*_[\]|~#]/g, (c) => `\\${c}`);
}

/**
 * A code span that shows `text` literally: the fence is longer than any backtick run inside.
 * In a table a `|` must still be escaped, as GFM splits cells before it parses code spans.
 */
export function codeSpan(text: string, inTable = true): string {
  let body = lineText(text);
  const fence = '`'.repeat(longestRun(body, '`') + 1);
  if (body.startsWith('`') || body.endsWith('`') || body.trim() === '') body = ` ${body} `;
  if (inTable) body = body.replace(/\|/g, '\\|');
  return `${fence}${body}${fence}`;
}

/** A fenced code block whose fence no line inside can close; each line stays one line (lineText). */
export function codeBlock(lang: string, lines: readonly string[]): string {
  const shown = lines.map(lineText);
  const fence = '`'.repeat(Math.max(3, ...shown.map((l) => longestRun(l, '`') + 1)));
  return [`${fence}${lang}`, ...shown, fence].join('\n');
}

function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}
