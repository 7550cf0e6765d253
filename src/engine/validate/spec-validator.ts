// Validates a kind's spec against its JSON Schema with ajv: compiled by the build, or once per kind.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, Options, ValidateFunction } from 'ajv';
import type addFormatsModule from 'ajv-formats';
import { fieldOf, isObject, type JsonObject, type JsonPath } from '../../core/json.js';
import type { DocumentKind, KindDefinition } from '../../core/kind.js';
import { problemsFromAjv } from './ajv-messages.js';
import { KNOWN_VALUES } from './open-values.js';
import type { SpecProblem } from './spec-problem.js';

// ajv is loaded only when a schema must be compiled (from source, or a stale build): the
// precompiled validators need only its small runtime, and start-up is most of a validate run.
const require = createRequire(import.meta.url);

let ajv: AjvClass | undefined;
const compiled = new Map<string, ValidateFunction>();

/** An ajv with moor's settings: every error (not the first), formats, and our keywords. */
export function newSchemaCompiler(extra: Options = {}): AjvClass {
  const { Ajv } = require('ajv') as typeof import('ajv');
  // ajv-formats is CommonJS: its default export is the module object's `default`.
  const addFormats = (require('ajv-formats') as typeof addFormatsModule).default;
  const instance = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, ...extra });
  addFormats(instance);
  instance.addKeyword({ keyword: 'patternErrorMessage', schemaType: 'string' });
  instance.addKeyword({ keyword: 'defaultsToMetadataName', schemaType: 'boolean' });
  instance.addKeyword({ keyword: KNOWN_VALUES, schemaType: 'array' });
  return instance;
}

/** One ajv for the process. */
export function schemaCompiler(): AjvClass {
  ajv ??= newSchemaCompiler();
  return ajv;
}

/**
 * Validators the build compiled ahead (scripts/compile-schemas.mjs -> compiled-schemas.js beside
 * this module in dist/, naming each validator's file in compiled-schemas/ and its schema's hash);
 * absent when running from source, then schemas compile on first use.
 */
interface Precompiled {
  /** Absent in a compiled-schemas.js of an older build (one file held every validator): then schemas compile. */
  readonly files?: Readonly<Record<string, string>>;
  readonly hashes: Readonly<Record<string, string>>;
}
const precompiled = (await import(new URL('./compiled-schemas.js', import.meta.url).href).catch(() => undefined)) as Precompiled | undefined;

/** The export name of a kind's (or one of its fields') validator in its compiled file. */
export function compiledKey(kind: string, field?: string): string {
  return field ? `field_${kind}_${field}` : `spec_${kind}`;
}

/** The file, in compiled-schemas/, of a kind's precompiled validators (CommonJS: require()d when the kind is first validated). */
export function compiledFile(kind: string): string {
  return `${kind}.cjs`;
}

/** A short hash of a schema: a precompiled validator is used only for the schema it was made from. */
export function schemaHash(schema: unknown): string {
  return createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 16);
}

/** The precompiled validator of `key` when it was made from `schema`, else a fresh compile. */
function compileOrLoad(key: string, schema: JsonObject): ValidateFunction {
  const file = precompiled?.files?.[key];
  if (file !== undefined && precompiled?.hashes[key] === schemaHash(schema)) {
    // The code of one kind only: a run reads the validators of the kinds its manifests use.
    const fn = (require(`./compiled-schemas/${file}`) as Record<string, unknown>)[key];
    if (typeof fn === 'function') return fn as ValidateFunction;
  }
  return schemaCompiler().compile(schema);
}

function validatorOf(kind: KindDefinition | DocumentKind): ValidateFunction {
  let fn = compiled.get(kind.kind);
  if (!fn) {
    fn = compileOrLoad(compiledKey(kind.kind), kind.specSchema);
    compiled.set(kind.kind, fn);
  }
  return fn;
}

/** The schemas of the spec fields that take metadata.name when left out. */
export function defaultedFieldSchemas(kind: KindDefinition): [string, JsonObject][] {
  const props = isObject(kind.specSchema.properties) ? kind.specSchema.properties : {};
  return Object.entries(props).filter((e): e is [string, JsonObject] => isObject(e[1]) && e[1].defaultsToMetadataName === true);
}

const defaulted = new Map<string, { field: string; validate: ValidateFunction }[]>();

/** The spec fields of a kind that take metadata.name when left out, with their validators. */
function defaultedFields(kind: KindDefinition): { field: string; validate: ValidateFunction }[] {
  let list = defaulted.get(kind.kind);
  if (!list) {
    list = defaultedFieldSchemas(kind).map(([field, s]) => ({ field, validate: compileOrLoad(compiledKey(kind.kind, field), s) }));
    defaulted.set(kind.kind, list);
  }
  return list;
}

/**
 * metadata.name checked by the rules of the spec fields it stands in for (an AuthContext
 * named `mfa` without spec.id would send the id `mfa`, which the service refuses).
 */
export function validateDefaultedName(kind: KindDefinition, name: string, spec: JsonObject): SpecProblem[] {
  const out: SpecProblem[] = [];
  for (const { field, validate } of defaultedFields(kind)) {
    if (fieldOf(spec, field) !== undefined || validate(name)) continue;
    for (const p of problemsFromAjv(validate.errors ?? [], {}, ['metadata', 'name'])) {
      out.push({ ...p, message: p.message.replace(/^metadata\.name: /, `metadata.name: used as spec.${field} (not set), it `) });
    }
  }
  return out;
}

/** Schema problems of `spec`, with paths from the document root (`root`, normally ['spec']). */
export function validateSpec(kind: KindDefinition | DocumentKind, spec: JsonObject, root: JsonPath = ['spec']): SpecProblem[] {
  const validate = validatorOf(kind);
  if (validate(spec)) return [];
  return problemsFromAjv(validate.errors ?? [], spec, root);
}
