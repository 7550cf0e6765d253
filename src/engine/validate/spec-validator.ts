// Validates a kind's spec against its JSON Schema with ajv, compiled once per kind.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JsonObject, JsonPath } from '../json.js';
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

/** Schema problems of `spec`, with paths from the document root (`root`, normally ['spec']). */
export function validateSpec(kind: KindDefinition, spec: JsonObject, root: JsonPath = ['spec']): SpecProblem[] {
  const validate = validatorOf(kind);
  if (validate(spec)) return [];
  return problemsFromAjv(validate.errors ?? [], spec, root);
}
