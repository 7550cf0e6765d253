// The build's precompiled validators (dist/engine/validate/compiled-schemas.js names each one's file
// in compiled-schemas/) are made from today's schemas and report exactly what a fresh ajv compile reports.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { BUILT_IN_KINDS, KINDS } from '../../src/resources/registry.js';
import { compiledKey, defaultedFieldSchemas, newSchemaCompiler, schemaHash } from '../../src/engine/validate/spec-validator.js';
import { loadManifests } from '../../src/engine/load/index.js';

const FILE = join(import.meta.dirname, '../../dist/engine/validate/compiled-schemas.js');
const require = createRequire(FILE);

/** The precompiled validator of `key`, from the file compiled-schemas.js names for it. */
async function precompiledValidator(key: string): Promise<ValidateFunction> {
  const { files } = (await import(pathToFileURL(FILE).href)) as { files: Record<string, string> };
  return (require(`./compiled-schemas/${files[key]}`) as Record<string, ValidateFunction>)[key];
}

describe('precompiled schemas', () => {
  test('exist after the build, one per kind and defaulted field, each from the current schema', async () => {
    expect(existsSync(FILE), 'run npm run build').toBe(true);
    const compiled = (await import(pathToFileURL(FILE).href)) as { hashes: Record<string, string> };
    for (const kind of KINDS) {
      expect(compiled.hashes[compiledKey(kind.kind)], kind.kind).toBe(schemaHash(kind.specSchema));
      for (const [field, schema] of defaultedFieldSchemas(kind)) expect(compiled.hashes[compiledKey(kind.kind, field)]).toBe(schemaHash(schema));
    }
  });

  test('give the same errors as a fresh compile on valid and broken manifests', async () => {
    const ajv = newSchemaCompiler();
    const { manifests } = await loadManifests(['examples/manifests', 'test/fixtures/manifests'], BUILT_IN_KINDS, { cwd: process.cwd() });
    expect(manifests.length).toBeGreaterThan(10);
    for (const m of manifests) {
      const kind = KINDS.find((k) => k.kind === m.kind);
      if (!kind) continue;
      const fresh = ajv.compile(kind.specSchema);
      const ahead = await precompiledValidator(compiledKey(kind.kind));
      expect(ahead(m.spec), m.address).toBe(fresh(m.spec));
      const shape = (errors: ValidateFunction['errors']) =>
        (errors ?? []).map((e) => ({ path: e.instancePath, keyword: e.keyword, params: e.params, message: e.message, schemaPath: e.schemaPath }));
      expect(shape(ahead.errors), m.address).toEqual(shape(fresh.errors));
    }
  });
});
