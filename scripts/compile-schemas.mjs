// Build step (after tsc): compiles every kind's spec schema with ajv into standalone validation
// code, so a run does not compile schemas at start-up: a file for each kind,
// dist/engine/validate/compiled-schemas/KIND.cjs (CommonJS, which spec-validator.ts require()s
// synchronously when it first validates that kind), and dist/engine/validate/compiled-schemas.js,
// which names each validator's file and the hash of the schema it was made from. A run loads the
// code of the kinds its manifests use, not all of it (ContainerGroup's alone is ~290 KB). A stale
// validator (schemas changed, this step not run) is ignored at run time and the schema compiled as before.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import standaloneModule from 'ajv/dist/standalone/index.js';

const dist = new URL('../dist/', import.meta.url);
const { KINDS } = await import(new URL('resources/registry.js', dist).href);
const { newSchemaCompiler, schemaHash, compiledKey, compiledFile, defaultedFieldSchemas } = await import(
  new URL('engine/validate/spec-validator.js', dist).href
);
const standaloneCode = standaloneModule.default ?? standaloneModule;

const ajv = newSchemaCompiler({ code: { source: true, esm: false } });
const folder = new URL('engine/validate/compiled-schemas/', dist);
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder);
const files = {};
const hashes = {};
for (const kind of KINDS) {
  const exports = {};
  const add = (key, schema) => {
    ajv.addSchema(schema, key);
    exports[key] = key;
    files[key] = compiledFile(kind.kind);
    hashes[key] = schemaHash(schema);
  };
  add(compiledKey(kind.kind), kind.specSchema);
  for (const [field, schema] of defaultedFieldSchemas(kind)) add(compiledKey(kind.kind, field), schema);
  writeFileSync(new URL(compiledFile(kind.kind), folder), standaloneCode(ajv, exports));
}
const index = new URL('engine/validate/compiled-schemas.js', dist);
writeFileSync(index, `export const files = ${JSON.stringify(files)};\nexport const hashes = ${JSON.stringify(hashes)};\n`);
console.log(`compiled ${Object.keys(files).length} schemas into ${fileURLToPath(folder)} (${KINDS.length} files)`);
