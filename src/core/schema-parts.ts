// Building blocks for the kinds' JSON Schemas: formats and bounds that several kinds share.
import type { JsonObject } from './json.js';

// Three keywords of our own are registered with ajv: `patternErrorMessage` (what a pattern means,
// also shown by editors), `defaultsToMetadataName` (a spec field that takes metadata.name) and
// `knownValues` (the values known so far of an open list, see openEnumOf).

/** A closed object: every key listed, a misspelt one is an error. */
export function object(properties: JsonObject, required: string[] = [], extra: JsonObject = {}): JsonObject {
  const schema: JsonObject = { type: 'object', properties, additionalProperties: false, ...extra };
  if (required.length > 0) schema.required = required;
  return schema;
}

export function array(items: JsonObject, extra: JsonObject = {}): JsonObject {
  return { type: 'array', items, ...extra };
}

export function string(extra: JsonObject = {}): JsonObject {
  return { type: 'string', ...extra };
}

/** A string matching `pattern`; `message` is what a user is told (editors show it too). */
export function patterned(pattern: string, message: string, extra: JsonObject = {}): JsonObject {
  return { type: 'string', pattern, patternErrorMessage: message, ...extra };
}

export function enumOf(values: string[], description?: string): JsonObject {
  return description ? { type: 'string', enum: values, description } : { type: 'string', enum: values };
}

/**
 * A string from an open list: the service may accept values beyond `known` (its list is not
 * complete, or is an extensible enum), so any string validates and an unknown one is a warning
 * (engine/validate/open-values.ts). Editors offer the known values as examples.
 */
export function openEnumOf(known: string[], description?: string): JsonObject {
  const schema: JsonObject = { type: 'string', examples: known, knownValues: known };
  if (description) schema.description = description;
  return schema;
}

export const boolean: JsonObject = { type: 'boolean' };
export const int32: JsonObject = { type: 'integer', minimum: -2147483648, maximum: 2147483647 };
export const number: JsonObject = { type: 'number' };
export const uuid: JsonObject = { type: 'string', format: 'uuid' };
export const uri: JsonObject = { type: 'string', format: 'uri' };
export const dateTime: JsonObject = { type: 'string', format: 'date-time' };
export const nonEmpty: JsonObject = { type: 'string', minLength: 1 };
export const stringList: JsonObject = { type: 'array', items: { type: 'string' } };
export const stringMap: JsonObject = { type: 'object', additionalProperties: { type: 'string' } };

/** A pattern matching `word` in any casing (JSON Schema patterns carry no flags, so no `i`). */
export function anyCase(word: string): string {
  return Array.from(word)
    .map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toUpperCase()}${c.toLowerCase()}]`))
    .join('');
}

/**
 * An ARM resource id. ARM reads ids ignoring case, and its own tools write `resourcegroups`
 * (the CLI, the portal, the official samples), so the fixed segments match in any casing.
 */
export const armId = patterned(
  `^/${anyCase('subscriptions')}/[^/]+/${anyCase('resourceGroups')}/[^/]+/${anyCase('providers')}/[^/]+/.+`,
  'must be a resource id /subscriptions/{id}/resourceGroups/{group}/providers/{namespace}/{type}/{name}',
);

export const base64 = patterned('^[A-Za-z0-9+/]*={0,2}$', 'must be base64');

/** A value used as one segment of a URL path: no slash, no whitespace. */
export const pathSegment = patterned('^[^/\\\\?#%\\s]+$', 'must be a single path segment (no "/", "\\", "?", "#", "%" or spaces)', { maxLength: 256 });

export const resourceGroup = patterned('^[-\\w._()]*[-\\w_()]$', 'must be 1 to 90 letters, digits, "-", "_", ".", "(" or ")", not ending with "."', {
  minLength: 1,
  maxLength: 90,
});

/** Tags: keys and values at most 256 characters, keys non-empty and without < > % & \ ? / (the analytics and ARM tag rules). */
export const tags: JsonObject = {
  type: 'object',
  propertyNames: patterned('^[^<>%&\\\\?/]+$', 'tag keys must not contain < > % & \\ ? /', { minLength: 1, maxLength: 256 }),
  additionalProperties: { type: 'string', maxLength: 256 },
};

/** A database-movement project id: YAML reads `projectId: 1234567` as a number; either way it is one path segment. */
export const projectId: JsonObject = {
  type: ['string', 'integer'],
  pattern: '^[^/\\\\?#%\\s]+$',
  patternErrorMessage: 'must be a single path segment',
  minLength: 1,
};

/** A job's revision: any value; the job runs again only when it changes (compared as a string). */
export function jobRevision(job: string): JsonObject {
  return { type: ['string', 'number'], minLength: 1, description: `Any value; the ${job} runs again only when it changes (compared as a string).` };
}
