// Overlays merge as RFC 7386 merge patches, keyed arrays by key, and remember which document set each value.
import { describe, expect, test } from 'vitest';
import type { JsonObject, JsonPath } from '../../core/json.js';
import type { SourceMap } from '../manifest.js';
import { MergedDocument } from './merge-patch.js';

/** A source map that answers with its file and the path asked, encoded in the column's place. */
function sourceOf(file: string): SourceMap & { asked: JsonPath[] } {
  const asked: JsonPath[] = [];
  return {
    file,
    path: `/${file}`,
    asked,
    locate: (path) => {
      asked.push(path);
      return { file, line: path.length, col: 1 };
    },
  };
}

const keyOf = (path: JsonPath) => (path.join('/') === 'spec/containers' || /^spec\/containers\/\d+\/env$/.test(path.join('/')) ? 'name' : undefined);

describe('overlay merge', () => {
  test.each<{ reason: string; base: JsonObject; patch: JsonObject; merged: JsonObject }>([
    { reason: 'a scalar is replaced', base: { a: 1, b: 2 }, patch: { b: 3 }, merged: { a: 1, b: 3 } },
    { reason: 'null removes a key', base: { a: 1, b: { c: 2 } }, patch: { b: null }, merged: { a: 1 } },
    { reason: 'objects merge recursively', base: { a: { b: 1, c: 2 } }, patch: { a: { c: 3, d: 4 } }, merged: { a: { b: 1, c: 3, d: 4 } } },
    { reason: 'a new object loses its null members', base: {}, patch: { a: { b: null, c: 1 } }, merged: { a: { c: 1 } } },
    {
      reason: 'an array without a key is replaced whole',
      base: { spec: { zones: ['1', '2'] } },
      patch: { spec: { zones: ['3'] } },
      merged: { spec: { zones: ['3'] } },
    },
    {
      reason: 'a keyed array merges by key: a known element is patched, a new one is added at the end',
      base: {
        spec: {
          containers: [
            { name: 'web', image: 'a', env: [{ name: 'X', value: '1' }] },
            { name: 'db', image: 'b' },
          ],
        },
      },
      patch: {
        spec: {
          containers: [
            {
              name: 'web',
              env: [
                { name: 'Y', value: '2' },
                { name: 'X', value: null },
              ],
            },
            { name: 'cache', image: 'c' },
          ],
        },
      },
      merged: {
        spec: {
          containers: [
            { name: 'web', image: 'a', env: [{ name: 'X' }, { name: 'Y', value: '2' }] },
            { name: 'db', image: 'b' },
            { name: 'cache', image: 'c' },
          ],
        },
      },
    },
  ])('$reason', ({ base, patch, merged }) => {
    const doc = new MergedDocument(base, sourceOf('base.yaml'));
    doc.apply(patch, sourceOf('overlay.yaml'), keyOf);
    expect(doc.value).toEqual(merged);
  });

  test('a merged value is located in the document that set it, a keyed element by its own index there', () => {
    const base = sourceOf('base.yaml');
    const overlay = sourceOf('overlay.yaml');
    const doc = new MergedDocument(
      {
        spec: {
          containers: [
            { name: 'db', image: 'b' },
            { name: 'web', image: 'a', cpu: 1 },
          ],
        },
      },
      base,
    );
    doc.apply(
      {
        spec: {
          containers: [
            { name: 'web', cpu: 'two' },
            { name: 'cache', image: 'c' },
          ],
        },
      },
      overlay,
      keyOf,
    );
    const map = doc.sourceMap();
    expect(map.locate(['spec', 'containers', 1, 'cpu']).file).toBe('overlay.yaml');
    expect(overlay.asked.pop()).toEqual(['spec', 'containers', 0, 'cpu']);
    expect(map.locate(['spec', 'containers', 1, 'image']).file).toBe('base.yaml');
    expect(base.asked.pop()).toEqual(['spec', 'containers', 1, 'image']);
    expect(map.locate(['spec', 'containers', 2, 'image']).file).toBe('overlay.yaml');
    expect(overlay.asked.pop()).toEqual(['spec', 'containers', 1, 'image']);
    expect(map.file).toBe('base.yaml');
  });

  test('later overlays win over earlier ones and are located there', () => {
    const doc = new MergedDocument({ a: 1 }, sourceOf('base.yaml'));
    doc.apply({ a: 2 }, sourceOf('one.yaml'), keyOf);
    doc.apply({ a: 3 }, sourceOf('two.yaml'), keyOf);
    expect(doc.value).toEqual({ a: 3 });
    expect(doc.sourceMap().locate(['a']).file).toBe('two.yaml');
  });
});
