// Validates a kind's spec against its JSON Schema with ajv, compiled once per kind.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { isObject, type JsonObject, type JsonPath } from '../json.js';
import type { KindDefinition } from '../../resources/kind.js';
import { problemsFromAjv } from './ajv-messages.js';
import type { SpecProblem } from './spec-problem.js';

// ajv-formats is CommonJS: under NodeNext its default export is the module object.
const addFormats = addFormatsModule.default;

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/** One ajv for the process: every error (not the first), formats, and our message keyword. */
export function schemaCompiler(): Ajv {
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
    addFormats(ajv);
    ajv.addKeyword({ keyword: 'patternErrorMessage', schemaType: 'string' });
    ajv.addKeyword({ keyword: 'defaultsToMetadataName', schemaType: 'boolean' });
  }
  return ajv;
}

function validatorOf(kind: KindDefinition): ValidateFunction {
  let fn = compiled.get(kind.kind);
  if (!fn) {
    fn = schemaCompiler().compile(kind.specSchema);
    compiled.set(kind.kind, fn);
  }
  return fn;
}

const defaulted = new Map<string, Array<{ field: string; validate: ValidateFunction }>>();

/** The spec fields of a kind that take metadata.name when left out, with their validators. */
function defaultedFields(kind: KindDefinition): Array<{ field: string; validate: ValidateFunction }> {
  let list = defaulted.get(kind.kind);
  if (!list) {
    const props = isObject(kind.specSchema.properties) ? kind.specSchema.properties : {};
    list = Object.entries(props)
      .filter(([, s]) => isObject(s) && s.defaultsToMetadataName === true)
      .map(([field, s]) => ({ field, validate: schemaCompiler().compile(s as JsonObject) }));
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
    if (spec[field] !== undefined || validate(name)) continue;
    for (const p of problemsFromAjv(validate.errors ?? [], {}, ['metadata', 'name'])) {
      out.push({ ...p, message: p.message.replace(/^metadata\.name: /, `metadata.name: used as spec.${field} (not set), it `) });
    }
  }
  return out;
}

/** Schema problems of `spec`, with paths from the document root (`root`, normally ['spec']). */
export function validateSpec(kind: KindDefinition, spec: JsonObject, root: JsonPath = ['spec']): SpecProblem[] {
  const validate = validatorOf(kind);
  if (validate(spec)) return [];
  return problemsFromAjv(validate.errors ?? [], spec, root);
}
