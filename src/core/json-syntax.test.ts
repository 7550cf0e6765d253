import { describe, expect, it } from 'vitest';
import { jsonSyntaxError } from './json-syntax.js';
import { seededRandom } from './seeded-random.js';

const STATE = JSON.stringify(
  {
    version: 1,
    serial: 7,
    resources: { 'A/b': { kind: 'A', name: 'b', lastApplied: { n: -1.5e3, t: true, f: false, z: null, s: 'x\\"\u00e9\\u0041', a: [1, [], {}] } } },
  },
  null,
  2,
);

describe('jsonSyntaxError', () => {
  it('finds nothing wrong in valid JSON', () => {
    for (const text of [STATE, '0', '"x"', ' [ ] ', '{"a":{"b":[1,2,{"c":"\\n"}]}}']) expect(jsonSyntaxError(text)).toBeUndefined();
  });

  it('names the line, column and what is wrong', () => {
    expect(jsonSyntaxError('{"a":\n  01}')).toEqual({ line: 2, col: 3, problem: "unexpected '01'" });
    expect(jsonSyntaxError('{"a": "x\ny"}')).toEqual({ line: 1, col: 9, problem: 'a control character in a string (a newline or tab must be escaped)' });
    expect(jsonSyntaxError('[1,\n2,]')).toEqual({ line: 2, col: 3, problem: "unexpected ']'" });
    expect(jsonSyntaxError('{a: 1}')).toEqual({ line: 1, col: 2, problem: "unexpected 'a'" });
    expect(jsonSyntaxError('{} x')).toEqual({ line: 1, col: 4, problem: "unexpected 'x'" });
    expect(jsonSyntaxError('')).toEqual({ line: 1, col: 1, problem: 'the text ends early' });
  });

  it('agrees with JSON.parse on which texts are JSON (a state document cut, or with a character dropped or added)', () => {
    const random = seededRandom(11);
    const chars = '{}[],:"\\ \n0-1etrufalsn.x';
    for (let i = 0; i < 2000; i++) {
      const at = Math.floor(random() * STATE.length);
      const kind = i % 3;
      const text =
        kind === 0
          ? STATE.slice(0, at)
          : kind === 1
            ? STATE.slice(0, at) + STATE.slice(at + 1)
            : STATE.slice(0, at) + chars[Math.floor(random() * chars.length)] + STATE.slice(at);
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(jsonSyntaxError(text) === undefined, text).toBe(valid);
    }
  });
});
