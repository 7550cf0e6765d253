// The fast reader agrees with the `yaml` package on the subset it accepts, and declines everything else.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { parseFast } from './fast-yaml.js';

function viaYaml(text: string): unknown[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS())
    .filter((v) => v !== null && v !== undefined);
}

const supported: [string, string][] = [
  ['block maps and lists', 'a: 1\nb:\n  c: x\n  d:\n    - 1\n    - two\n'],
  ['a list at the same indentation as its key', 'a:\n- 1\n- 2\nb: 3\n'],
  ['compact maps in lists', 'items:\n  - name: a\n    value: 1\n  - name: b\n    nested:\n      deep: true\n'],
  [
    'core-schema scalars',
    'n: null\nt: ~\ne:\nb: True\nf: FALSE\ni: -12\no: 0o17\nh: 0x1F\nx: 1.5e3\ny: .5\nz: 1.\ninf: -.inf\ns: yes\nv: 1.2.3\nd: 2026-11-21\n',
  ],
  ['quoted scalars and keys', `a: "x: y # not a comment"\nb: 'it''s'\n"c d": "esc \\" \\\\ \\n \\t \\u00e9"\n'e': ''\n`],
  ['comments everywhere', '# head\na: 1 # trailing\n  # indented comment\nb: x#y\n'],
  ['one-line flow collections', 'a: [1, "two", {b: c, d: [e, f]}]\ng: {}\nh: []\ni: {j: http://x.example.net/a?b=c}\n'],
  ['several documents with separators and comments', '---\na: 1\n--- # second\nb: 2\n---\n# empty\n---\nc: 3\n'],
  ['CRLF line ends', 'a: 1\r\nb:\r\n  - x\r\n'],
  ['plain scalars with inner colons and dashes', 'url: http://example.net:8080/x\nname: -x\ncmd: a:b\n'],
  ['placeholders', 'v: ${env:X}\nw: "${file:a b}"\n'],
];

const unsupported: [string, string][] = [
  ['anchors and aliases', 'a: &x 1\nb: *x\n'],
  ['tags', 'a: !!str 1\n'],
  ['block scalars', 'a: |\n  text\n'],
  ['multi-line plain scalars', 'a: one\n  two\n'],
  ['multi-line quoted scalars', 'a: "one\n  two"\n'],
  ['multi-line flow collections', 'a: [1,\n  2]\n'],
  ['duplicate keys', 'a: 1\na: 2\n'],
  ['non-string keys', '1: a\n'],
  ['complex keys', '? a\n: b\n'],
  ['tabs', 'a:\t1\n'],
  ['nested compact lists', '- - a\n'],
  ['a nested mapping on a value line', 'a: b: c\n'],
  ['a scalar document', 'just text\n'],
  ['trailing commas in flow', 'a: [1, 2, ]\n'],
  ['document end markers', 'a: 1\n...\n'],
  ['directives', '%YAML 1.2\n---\na: 1\n'],
  ['bad dedent', 'a:\n    b: 1\n  c: 2\n'],
  ['a merge key', 'a:\n  <<: {b: 1}\n'],
  ['unknown escapes', 'a: "\\q"\n'],
];

describe('parseFast', () => {
  test.each(supported)('reads %s exactly as yaml does', (_reason, text) => {
    const fast = parseFast(text);
    expect(fast).toBeDefined();
    expect(fast?.map((d) => d.value).filter((v) => v !== null)).toEqual(viaYaml(text));
  });

  test.each(unsupported)('declines %s', (_reason, text) => {
    expect(parseFast(text)).toBeUndefined();
  });

  test('records where each document starts', () => {
    const text = '# c\na: 1\n---\n  b: 2\n';
    expect(parseFast(text)?.map((d) => d.offset)).toEqual([text.indexOf('a:'), text.indexOf('b:')]);
  });

  test.each(['examples/manifests', 'test/fixtures/manifests', 'test/fixtures/manifests/every-field'])('reads every file of %s as yaml does', (dir) => {
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
      const text = readFileSync(join(dir, name), 'utf8');
      const fast = parseFast(text);
      expect({ name, values: fast?.map((d) => d.value) }).toEqual({ name, values: viaYaml(text) });
    }
  });

  test('agrees with yaml on 500 generated documents whenever it accepts one', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const scalars = ['a', 'b c', '1', 'true', 'null', '', 'x: y', '#', '- z', '0x1F', '1e3', "it's", '"q"', 'é', '${env:X}', 7, -1.5, true, null];
    const gen = (depth: number): unknown => {
      const r = rand(depth > 3 ? 1 : 3);
      if (r === 0) return scalars[rand(scalars.length)];
      if (r === 1) return Array.from({ length: rand(4) }, () => gen(depth + 1));
      return Object.fromEntries(Array.from({ length: rand(4) }, (_, i) => [`k${i}${['', ' x', '-y', ':z'][rand(4)]}`, gen(depth + 1)]));
    };
    let accepted = 0;
    for (let n = 0; n < 500; n++) {
      const doc = { root: gen(0) };
      const text = stringify(doc, { collectionStyle: rand(2) === 0 ? 'block' : 'any' });
      const fast = parseFast(text);
      if (!fast) continue;
      accepted++;
      expect({ text, value: fast[0]?.value }).toEqual({ text, value: viaYaml(text)[0] });
    }
    expect(accepted).toBeGreaterThan(100);
  });

  test('never accepts a mangled manifest that yaml rejects or reads differently', () => {
    const bases = ['examples/manifests/container-groups.yaml', 'test/fixtures/manifests/every-field/others.yaml'].map((f) => readFileSync(f, 'utf8'));
    const chars = [
      '!',
      '&',
      '*',
      '|',
      '>',
      '\t',
      '...\n',
      '%',
      ' ',
      ':',
      '#',
      '-',
      '"',
      "'",
      '\\',
      '[',
      ']',
      '{',
      '}',
      ',',
      '?',
      '\n',
      '  ',
      '- ',
      ': ',
      '0',
      'a',
      '---\n',
      '~',
    ];
    let seed = 3;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let n = 0; n < 1500; n++) {
      let text = bases[rand(bases.length)];
      for (let k = 0; k <= rand(3); k++) {
        const at = rand(text.length);
        text = text.slice(0, at) + chars[rand(chars.length)] + text.slice(at + rand(2));
      }
      const fast = parseFast(text);
      if (!fast) continue;
      // Parsed once: its problems, and the values viaYaml(text) would read (parsing the text again).
      const docs = parseAllDocuments(text);
      const problems = (Array.isArray(docs) ? docs : []).flatMap((d) => [...d.errors, ...d.warnings].map((e) => e.code));
      const values = docs.map((d) => d.toJS()).filter((v) => v !== null && v !== undefined);
      expect({ text, problems, values: fast.map((d) => d.value).filter((v) => v !== null) }).toEqual({ text, problems: [], values });
    }
  });
});
