// The source map finds keys and values by path and falls back to the nearest ancestor.
import { describe, expect, test } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { YamlSourceMap } from './yaml-source-map.js';

const TEXT = `spec:
  name: web
  empty:
  list:
    - a: 1
    - b: 2
`;

function mapOf(text: string): YamlSourceMap {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  return new YamlSourceMap('m.yaml', doc, lines, '/m.yaml');
}

describe('YamlSourceMap.locate', () => {
  const map = mapOf(TEXT);
  test.each([
    { reason: 'a value', path: ['spec', 'name'], at: 'value' as const, line: 2, col: 9 },
    { reason: 'a key', path: ['spec', 'name'], at: 'key' as const, line: 2, col: 3 },
    { reason: 'an empty value points at its key', path: ['spec', 'empty'], at: 'value' as const, line: 3, col: 3 },
    { reason: 'an array item by index', path: ['spec', 'list', 1, 'b'], at: 'value' as const, line: 6, col: 10 },
    { reason: 'a missing key falls back to the nearest ancestor', path: ['spec', 'list', 0, 'zz'], at: 'value' as const, line: 5, col: 7 },
    { reason: 'a missing index falls back to the list', path: ['spec', 'list', 9], at: 'key' as const, line: 4, col: 3 },
  ])('$reason', ({ path, at, line, col }) => {
    expect(map.locate(path, at)).toEqual({ file: 'm.yaml', line, col });
  });
});
