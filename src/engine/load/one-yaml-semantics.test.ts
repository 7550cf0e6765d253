// One YAML semantics: what moor loads (fast reader or not) is what the `yaml` package loads, for
// every input; where `yaml` reports a problem, moor reports one too and never loads a value.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseFast } from './fast-yaml.js';
import { parseManifestFile } from './parse-manifest-file.js';
import { seededRandom } from '../../core/seeded-random.js';

/** What `yaml` makes of a text: its problems, and its non-empty documents when there are none. */
function viaYaml(text: string): { problems: string[]; values: unknown[] } {
  const docs = parseAllDocuments(text, { uniqueKeys: true, logLevel: 'error' });
  const list = Array.isArray(docs) ? docs : [];
  const problems = list.flatMap((d) => [...d.errors, ...d.warnings].map((e) => e.code));
  return { problems, values: problems.length > 0 ? [] : list.map((d) => (d.contents === null ? null : d.toJS())).filter((v) => v !== null && v !== undefined) };
}

async function load(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'moor-yaml-'));
  try {
    writeFileSync(join(dir, 'm.yaml'), text);
    const r = await parseManifestFile(join(dir, 'm.yaml'), 'm.yaml');
    return { values: r.documents.map((d) => d.value), errors: r.diagnostics.filter((d) => d.severity === 'error') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The fast reader either declines or agrees exactly with `yaml`, which must then find no problem. */
function expectAgreement(text: string): boolean {
  const fast = parseFast(text);
  if (!fast) return false;
  const values = fast.map((d) => d.value).filter((v) => v !== null);
  expect({ text, ...viaYaml(text) }).toEqual({ text, problems: [], values });
  return true;
}

const LONG_KEY = 'k'.repeat(1030);

describe('the cases where the fast reader disagreed with yaml', () => {
  test.each([
    ['a number followed by a no-break space stays a string', 'n: 1\u00a0\n', { n: '1\u00a0' }],
    ['false followed by a no-break space stays a string', 'b: false\u00a0\n', { b: 'false\u00a0' }],
    ['an ideographic space after a value is kept', 'v: x\u3000\n', { v: 'x\u3000' }],
    ['a zero-width space after null is kept', 'v: null\u200b\n', { v: 'null\u200b' }],
    ['a lone CR inside a value is kept', 'v: x\ry\n', { v: 'x\ry' }],
    ['a line separator inside a value is kept', 'v: x\u2028y\n', { v: 'x\u2028y' }],
    ['a BOM of a later document stays in its key, as yaml reads it', 'a: 1\n---\n\ufeffb: 2\n', { '\ufeffb': 2 }],
    ['a no-break space before a key is part of the key', '\u00a0a: 1\n', { '\u00a0a': 1 }],
  ])('%s', async (_what, text, value) => {
    expect(parseFast(text)).toBeUndefined();
    expect(viaYaml(text).values.at(-1)).toEqual(value);
    expect((await load(text)).values.at(-1)).toEqual(value);
  });

  test.each([
    ['a key over 1,024 characters', `${LONG_KEY}: 1\n`],
    ['a quoted key over 1,024 characters', `"${LONG_KEY}": 1\n`],
    ['a long key in a list item', `- ${LONG_KEY}: 1\n`],
    ['a comment glued to a double-quoted value', 'a: "x"#c\n'],
    ['a comment glued to a single-quoted value', "a: 'x'#c\n"],
    ['a comment glued to a flow list', 'a: [1]#c\n'],
    ['a comment glued to a flow map', 'a: {b: 1}#c\n'],
  ])('%s is an error, as yaml says', async (_what, text) => {
    expect(parseFast(text)).toBeUndefined();
    expect(viaYaml(text).problems).not.toEqual([]);
    const loaded = await load(text);
    expect(loaded.values).toEqual([]);
    expect(loaded.errors).not.toEqual([]);
  });

  test('a key of 1,000 characters is still read quickly, and as yaml reads it', () => {
    expect(expectAgreement(`${'k'.repeat(1000)}: 1\n`)).toBe(true);
  });
});

/** Whole numbers below n from a seed: the same corpus on every run. */
function prng(seed: number): (n: number) => number {
  const next = seededRandom(seed);
  return (n) => Math.floor(next() * n);
}

describe('differential: fast reader against yaml', () => {
  const BASES = [
    'apiVersion: moor/v1\nkind: ContainerGroup\nmetadata:\n  name: web\n  dependsOn: [AuthContext/c1]\nspec:\n  subscriptionId: 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11\n  resourceGroup: rg\n  location: westeurope\n  tags: {team: a, "cost center": "42"}\n  properties:\n    osType: Linux\n    containers:\n      - name: app\n        properties:\n          image: nginx:1.27\n          resources: {requests: {cpu: 1, memoryInGB: 1.5}}\n          environmentVariables:\n            - name: PW\n              secureValue: ${env:PW} # a secret\n            - {name: MODE, value: \'prod\'}\n',
    '---\napiVersion: moor/v1\nkind: AuthContext\nmetadata:\n  name: c1\nspec:\n  displayName: "One \\u00e9"\n  isAvailable: true\n--- # two\napiVersion: moor/v1\nkind: DatabaseExport\nmetadata: {name: e}\nspec:\n  revision: 3\n  backupName: b-1\n  list:\n  - 0x1F\n  - .5\n  - ~\n',
  ];
  const PIECES = [
    '\u00a0',
    '\u2000',
    '\u3000',
    '\u200b',
    '\ufeff',
    '\u2028',
    '\u0085',
    '\r',
    '\x0b',
    '\x1b',
    '\x7f',
    '#c',
    ' #c',
    '"q"',
    "'q'",
    '"a"#c',
    '[1]#c',
    'k'.repeat(1030),
    'é',
    '\ud83d\ude00',
    '!',
    '&a ',
    '*a',
    '|',
    '>',
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
    '---\n',
    '\n---\n\ufeff',
    '~',
    '@',
    '`',
    '\\x41',
    '\\N',
    'true',
    '1',
    '.5',
    '0o7',
    '1e3',
    '.inf',
    ' \u00a0',
    '\t',
  ];

  test('on 3,000 damaged manifests: every text it reads, it reads as yaml does (the cases above included)', () => {
    const rand = prng(20261123);
    let accepted = 0;
    for (let n = 0; n < 3000; n++) {
      let text = BASES[rand(BASES.length)];
      for (let k = 0; k <= rand(3); k++) {
        const at = rand(text.length);
        const op = rand(5);
        const lines = text.split('\n');
        const i = rand(lines.length - 1);
        if (op <= 2) text = text.slice(0, at) + PIECES[rand(PIECES.length)] + text.slice(at + rand(2));
        else if (op === 3) {
          lines[i] = ' '.repeat(rand(5)) + lines[i].trimStart();
          text = lines.join('\n');
        } else {
          lines.splice(i, 2, lines[i] + [' ', '', ': ', ' #'][rand(4)] + lines[i + 1].trimStart());
          text = lines.join('\n');
        }
      }
      if (expectAgreement(text)) accepted++;
    }
    // The reader must still take the common case, or validate gets slow.
    expect(accepted).toBeGreaterThan(300);
  });

  test('on 5,000 generated scalars in every position: every text it reads, it reads as yaml does', () => {
    const rand = prng(7);
    const alphabet = [
      'a',
      '1',
      '0',
      '.',
      '-',
      '+',
      'e',
      'x',
      'o',
      ':',
      '#',
      ' ',
      ' ',
      '"',
      "'",
      '[',
      ']',
      '{',
      '}',
      ',',
      '~',
      '_',
      'n',
      'u',
      'l',
      't',
      'r',
      'f',
      's',
      'N',
      'F',
      'é',
      '\\',
      '!',
      '&',
      '*',
      '?',
      '|',
      '>',
      '%',
      '@',
      '`',
      '\u00a0',
      '\ufeff',
      '$',
      '=',
      '/',
      'inf',
      'nan',
      'true',
      'null',
      'Null',
      '0x',
      '0o',
      '\r',
      '\n',
      '  ',
      '- ',
      ': ',
      ' #',
    ];
    const scalar = () => Array.from({ length: rand(7) }, () => alphabet[rand(alphabet.length)]).join('');
    const contexts = [
      (x: string) => `k: ${x}\n`,
      (x: string) => `- ${x}\n`,
      (x: string) => `k: [${x}, ${scalar()}]\n`,
      (x: string) => `k: {a: ${x}}\n`,
      (x: string) => `${x}: 1\n`,
      (x: string) => `k: "${x}"\n`,
      (x: string) => `k: '${x}'\n`,
      (x: string) => `a:\n  - b: ${x}\n    c: ${scalar()}\n`,
      (x: string) => `a: {${x}: ${scalar()}}\n`,
      (x: string) => `"${x}": 2\n`,
      (x: string) => `a:\n${x}\nb: 1\n`,
      (x: string) => `a: 1 ${x}\n`,
      (x: string) => `k: [${x}]\n`,
    ];
    let accepted = 0;
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: 1 + rand(2) }, () => contexts[rand(contexts.length)](scalar())).join(rand(3) === 0 ? '---\n' : '');
      if (expectAgreement(text)) accepted++;
    }
    expect(accepted).toBeGreaterThan(1000);
  });
  test('on 10,000 generated line structures (indents, lists, keys, flows, markers): every text it reads, it reads as yaml does', () => {
    const rand = prng(99);
    const values = [
      'a',
      'k1',
      '"q"',
      "'s'",
      '"a b"',
      '1',
      '-1',
      '0x1',
      '1.5',
      'true',
      'null',
      '~',
      '',
      '[]',
      '{}',
      '[1, 2]',
      '{x: 1}',
      '[a, {b: c}]',
      'x:y',
      'a#b',
      'é',
      '${env:X}',
      '-x',
      '?x',
      ':x',
      'a b',
      '"x\\ty"',
      "'it''s'",
      '[a, b',
      '{a: 1, a: 2}',
      '[a: 1]',
      '"a": 1',
      'k: v',
      '- z',
      '# c',
      'a #c',
      '"x" #c',
      '[1] #c',
      '-',
      '1e3',
      '.5',
      '.inf',
      'True',
      'NULL',
      'yes',
      '0o7',
      '007',
      '+1',
      '1_000',
      '2001-01-01',
      '@',
      '%',
      '!',
      '&x',
      '*x',
    ];
    const keys = [
      'a',
      'b',
      'k1',
      '"q"',
      "'s'",
      '"a b"',
      'x y',
      '1',
      'true',
      'null',
      '-x',
      '?x',
      ':x',
      'a#b',
      'é',
      '"__proto__"',
      '<<',
      '~',
      'a:b',
      '[a]',
      '{a}',
      '',
    ];
    const pick = (list: string[]) => list[rand(list.length)];
    const line = (): string => {
      const indent = ' '.repeat([0, 0, 2, 2, 4, 4, 6, 1, 3][rand(9)]);
      const r = rand(10);
      if (r < 5) return `${indent}${pick(keys)}:${rand(6) ? ' ' : ''}${pick(values)}`;
      if (r < 8) return `${indent}-${rand(6) ? ' ' : ''}${rand(3) === 0 ? `${pick(keys)}: ` : ''}${pick(values)}`;
      if (r < 9) return `${indent}${pick(values)}`;
      return pick(['---', '# c', '', '--- # x', '...']);
    };
    let accepted = 0;
    for (let n = 0; n < 10_000; n++) {
      if (expectAgreement(Array.from({ length: 1 + rand(6) }, line).join('\n') + (rand(2) ? '\n' : ''))) accepted++;
    }
    expect(accepted).toBeGreaterThan(500);
  });
});
