// Test helper: hostile foreign text, and the checks that output carrying it forges nothing.
import { expect } from 'vitest';

/** Everything a hostile manifest or service could try on one line. */
export const HOSTILE =
  'x\n::error::forged\r::warning::forged-cr \u001b]0;forged-title\u0007 \u001b[2J \u009b31m \u2028 ```` \n# Forged heading\n| a | b |\n  ::stop-commands::forged ##[error]forged-v1';

/** The workflow commands a line would start (GitHub reads `::` after leading blanks, and `##[` anywhere). */
export function forgedCommand(line: string): string | undefined {
  if (line.includes('##[')) return line;
  const start = line.trimStart();
  if (!start.startsWith('::')) return undefined;
  // moor's own annotations: ::error or ::warning, its properties, then a message that is moor's sentence.
  const own = /^::(error|warning)( file=[^:]*,line=\d+,col=\d+)?::(?!forged)/.test(start);
  return own ? undefined : line;
}

/** Where a fenced block is left open or closed by a line that was not its fence. */
export function brokenFence(text: string): string | undefined {
  let open: number | undefined;
  for (const line of text.split('\n')) {
    const fence = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (open === undefined) {
      if (fence) open = fence.length;
      else if (/^#+ Forged|^\| a \| b \|/.test(line)) return `outside a fence: ${line}`;
    } else if (fence && fence.length >= open && /^`+\s*$/.test(line)) open = undefined;
  }
  return open === undefined ? undefined : 'a fence is never closed';
}

/** No line starts a workflow command moor did not mean, no raw control character but moor's colours, no broken fence. */
export function expectNoForgery(out: string): void {
  expect(out.split('\n').map(forgedCommand).filter(Boolean)).toEqual([]);
  const withoutColour = out.replace(/\u001b\[\d+m/g, '');
  expect(withoutColour).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
  expect(brokenFence(out)).toBeUndefined();
}
