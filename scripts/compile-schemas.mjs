// Build step (after tsc): compiles every kind's spec schema with ajv into standalone validation
// code, dist/engine/validate/compiled-schemas.js, so a run does not compile schemas at start-up.
// Each validator carries a hash of its schema; a stale file (schemas changed, this step not run)
// is ignored at run time and the schemas are compiled as before.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import standaloneModule from 'ajv/dist/standalone/index.js';

const dist = new URL('../dist/', import.meta.url);
const { KINDS } = await import(new URL('resources/registry.js', dist).href);
const { newSchemaCompiler, schemaHash, compiledKey, defaultedFieldSchemas } = await import(new URL('engine/validate/spec-validator.js', dist).href);
const standaloneCode = standaloneModule.default ?? standaloneModule;

const ajv = newSchemaCompiler({ code: { source: true, esm: true } });
const exports = {};
const hashes = {};
for (const kind of KINDS) {
  const key = compiledKey(kind.kind);
  ajv.addSchema(kind.specSchema, key);
  exports[key] = key;
  hashes[key] = schemaHash(kind.specSchema);
  for (const [field, schema] of defaultedFieldSchemas(kind)) {
    const fieldKey = compiledKey(kind.kind, field);
    ajv.addSchema(schema, fieldKey);
    exports[fieldKey] = fieldKey;
    hashes[fieldKey] = schemaHash(schema);
  }
}
// ajv's ESM output still require()s its runtime helpers and the formats: give the module a require.
const prelude = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n";
const code = prelude + standaloneCode(ajv, exports) + `\nexport const hashes = ${JSON.stringify(hashes)};\n`;
const out = new URL('engine/validate/compiled-schemas.js', dist);
writeFileSync(out, code);
console.log(`compiled ${Object.keys(exports).length} schemas into ${fileURLToPath(out)}`);
