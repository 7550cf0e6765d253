// Tests of secret hashing and the sensitive-path walker.
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashSecret, hashSensitive, isHashed, isSensitivePath, mapSensitive, maskSensitive, matchesHash, matchesSecret } from './secrets.js';
import type { JsonObject } from '../core/json.js';

const patterns = ['properties/containers/*/properties/environmentVariables/*/secureValue', 'properties/volumes/*/secret'];

const spec: JsonObject = {
  location: 'westeurope',
  properties: {
    containers: [
      {
        name: 'web',
        properties: {
          environmentVariables: [
            { name: 'A', value: 'plain' },
            { name: 'B', secureValue: 'hunter2' },
          ],
        },
      },
    ],
    volumes: [{ name: 'v', secret: { 'b.txt': 'YmJi', 'a.txt': 'YWFh' } }],
  },
};

describe('hashSecret', () => {
  it('produces sha256:<salt>:<hex> with a random 16-byte salt', () => {
    const h = hashSecret('hunter2');
    expect(h).toMatch(/^sha256:[0-9a-f]{32}:[0-9a-f]{64}$/);
    expect(isHashed(h)).toBe(true);
    expect(h).not.toContain('hunter2');
  });

  it('salts: the same value hashes differently each time, identically with the same salt', () => {
    expect(hashSecret('x')).not.toBe(hashSecret('x'));
    expect(hashSecret('x', 'abc')).toBe(hashSecret('x', 'abc'));
  });

  it('matches the value it was made from and nothing else', () => {
    const h = hashSecret('hunter2');
    expect(matchesHash('hunter2', h)).toBe(true);
    expect(matchesHash('hunter3', h)).toBe(false);
    expect(matchesHash('hunter2', 'not a hash')).toBe(false);
  });

  it('refuses a salt that would break the format', () => {
    expect(() => hashSecret('x', 'a:b')).toThrow();
  });
});

describe('isHashed', () => {
  it.each([
    ['a plain string', 'hunter2', false],
    ['a number', 3, false],
    ['a truncated hash', 'sha256:abc:00', false],
  ])('is false for %s', (_why, v, want) => expect(isHashed(v)).toBe(want));
});

describe('canonicalJson', () => {
  it('sorts keys at every level so equal maps hash equally', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
  });
});

describe('mapSensitive', () => {
  it('replaces only values at sensitive patterns, handing objects over whole', () => {
    const seen: string[] = [];
    const out = mapSensitive(spec, patterns, (v, path) => {
      seen.push(path.join('/'));
      return typeof v;
    });
    expect(seen).toEqual(['properties/containers/0/properties/environmentVariables/1/secureValue', 'properties/volumes/0/secret']);
    expect(out).toMatchObject({
      location: 'westeurope',
      properties: {
        containers: [
          {
            properties: {
              environmentVariables: [
                { name: 'A', value: 'plain' },
                { name: 'B', secureValue: 'string' },
              ],
            },
          },
        ],
        volumes: [{ name: 'v', secret: 'object' }],
      },
    });
  });

  it('never modifies its input', () => {
    const before = JSON.stringify(spec);
    hashSensitive(spec, patterns);
    expect(JSON.stringify(spec)).toBe(before);
  });
});

describe('hashSensitive', () => {
  it('keeps no secret in clear and can be matched afterwards', () => {
    const hashed = hashSensitive(spec, patterns);
    const text = JSON.stringify(hashed);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('YmJi');
    const vol = (hashed.properties as JsonObject).volumes as JsonObject[];
    // Same secret map in another key order still matches: the hash is of canonical JSON.
    expect(matchesSecret({ 'a.txt': 'YWFh', 'b.txt': 'YmJi' }, vol[0].secret)).toBe(true);
    expect(matchesSecret({ 'a.txt': 'changed', 'b.txt': 'YmJi' }, vol[0].secret)).toBe(false);
  });

  it('leaves values that are already hashes alone, so hashing twice changes nothing', () => {
    const once = hashSensitive(spec, patterns);
    expect(hashSensitive(once, patterns)).toEqual(once);
  });
});

describe('maskSensitive', () => {
  it('shows (sensitive) in place of each secret', () => {
    const masked = JSON.stringify(maskSensitive(spec, patterns));
    expect(masked).toContain('"secureValue":"(sensitive)"');
    expect(masked).toContain('"secret":"(sensitive)"');
  });
});

describe('isSensitivePath', () => {
  it.each([
    ['the secret field itself', '/properties/containers/3/properties/environmentVariables/0/secureValue', true],
    ['a key inside a secret map', ['properties', 'volumes', 0, 'secret', 'a.txt'], true],
    ['a plain sibling', '/properties/containers/3/properties/environmentVariables/0/value', false],
    ['an ancestor of a secret', '/properties/volumes/0', false],
  ])('%s', (_why, path, want) => expect(isSensitivePath(path, patterns)).toBe(want));
});
