// Measures how deeply a YAML text nests, cheaply, so absurd nesting is refused before the parser recurses.

export interface NestingPosition {
  readonly line: number;
  readonly col: number;
  readonly depth: number;
}

/**
 * The first place where block indentation plus flow brackets nest deeper than `limit`, or
 * undefined. An estimate (it does not parse), generous enough never to refuse a real manifest.
 */
export function findExcessiveNesting(text: string, limit: number): NestingPosition | undefined {
  const indents: number[] = [];
  let flow = 0;
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const end = nextLineEnd(text, i);
    const found = scanLine(text, i, end, indents, flow, limit, line);
    if (typeof found === 'number') flow = found;
    else return found;
    i = end + 1;
    line++;
  }
  return undefined;
}

/** Returns the flow depth after the line, or the position where the limit is passed. */
function scanLine(text: string, start: number, end: number, indents: number[], flowIn: number, limit: number, line: number): number | NestingPosition {
  let flow = flowIn;
  let i = start;
  while (i < end && text.charCodeAt(i) === 32) i++;
  if (flow === 0 && i < end && text[i] !== '#') {
    const col = i - start;
    while (indents.length > 0 && indents[indents.length - 1] >= col) indents.pop();
    indents.push(col);
    // "- - - x" nests one sequence per dash on a single line.
    while (i + 1 < end && (text[i] === '-' || text[i] === '?') && text[i + 1] === ' ') {
      indents.push(i - start + 2);
      i += 2;
      while (i < end && text.charCodeAt(i) === 32) i++;
      if (indents.length > limit) return { line, col: i - start + 1, depth: indents.length };
    }
    if (indents.length > limit) return { line, col: col + 1, depth: indents.length };
  }
  let quote = '';
  for (; i < end; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === start || text[i - 1] === ' ')) {
      break;
    } else if (c === '[' || c === '{') {
      flow++;
      if (flow + indents.length > limit) return { line, col: i - start + 1, depth: flow + indents.length };
    } else if ((c === ']' || c === '}') && flow > 0) {
      flow--;
    }
  }
  return flow;
}

function nextLineEnd(text: string, from: number): number {
  const n = text.indexOf('\n', from);
  return n < 0 ? text.length : n;
}
