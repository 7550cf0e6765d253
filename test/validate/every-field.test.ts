// Complete manifests validate clean: every field of every kind, the examples, and the editor schema agrees.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadAndValidate } from '../../src/engine/validate/index.js';
import { documentSchema } from '../../src/engine/validate/document-schema.js';
import { schemaCompiler } from '../../src/engine/validate/spec-validator.js';
import { BUILT_IN_KINDS, KINDS } from '../../src/resources/registry.js';
import { isObject, type JsonObject, type JsonValue } from '../../src/core/json.js';
import { brief } from './helpers.js';

const EVERY = 'test/fixtures/manifests/every-field';
const EXAMPLES = 'examples/manifests';

/** Every property path a schema declares ('*' for list items), down to the leaves. */
function declaredPaths(schema: JsonObject, prefix: string[] = []): string[][] {
  const out: string[][] = [];
  if (isObject(schema.properties)) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      out.push([...prefix, key]);
      if (isObject(sub)) out.push(...declaredPaths(sub, [...prefix, key]));
    }
  }
  if (isObject(schema.items)) out.push(...declaredPaths(schema.items, [...prefix, '*']));
  return out;
}

function present(value: JsonValue | undefined, path: string[]): boolean {
  if (path.length === 0) return value !== undefined;
  const [head, ...rest] = path;
  if (head === '*') return Array.isArray(value) && value.some((item) => present(item, rest));
  return isObject(value) && present(value[head], rest);
}

describe('complete manifests', () => {
  test('a manifest using every field of every kind validates without a diagnostic', async () => {
    const r = await loadAndValidate([EVERY], BUILT_IN_KINDS, { cwd: process.cwd() });
    expect(brief(r.diagnostics)).toEqual([]);
    expect(new Set(r.manifests.map((m) => m.kind))).toEqual(new Set(KINDS.map((k) => k.kind)));
  });

  test.each(KINDS.map((k) => [k.kind, k] as const))('the every-field fixture really sets every field of %s', async (_name, kind) => {
    const specs = (await loadAndValidate([EVERY], BUILT_IN_KINDS, { cwd: process.cwd() })).manifests.filter((m) => m.kind === kind.kind).map((m) => m.spec);
    const missing = declaredPaths(kind.specSchema).filter((p) => !specs.some((s) => present(s, p)));
    expect(missing.map((p) => p.join('.'))).toEqual([]);
  });

  test('the examples validate without errors or warnings', async () => {
    const r = await loadAndValidate([EXAMPLES], BUILT_IN_KINDS, { cwd: process.cwd() });
    expect(brief(r.diagnostics)).toEqual([]);
    expect(new Set(r.manifests.map((m) => m.kind))).toEqual(new Set(KINDS.map((k) => k.kind)));
  });

  test('the document schema for editors accepts every example and fixture document', () => {
    const validate = schemaCompiler().compile(documentSchema(BUILT_IN_KINDS));
    const files = [EXAMPLES, EVERY].flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => join(dir, f)),
    );
    for (const file of files) {
      for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
        const ok = validate(doc.toJS());
        expect({ file, ok, errors: validate.errors ?? null }).toEqual({ file, ok: true, errors: null });
      }
    }
  });

  test('the document schema rejects a misspelt spec field for the kind named', () => {
    const validate = schemaCompiler().compile(documentSchema(BUILT_IN_KINDS));
    const doc = { apiVersion: 'moor/v1', kind: 'AuthContext', metadata: { name: 'c1' }, spec: { displayNme: 'x' } };
    expect(validate(doc)).toBe(false);
  });
});
