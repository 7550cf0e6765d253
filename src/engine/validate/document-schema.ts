// The JSON Schema of a whole manifest document (header plus the spec of each kind), for editors.
import { isObject, type JsonObject, type JsonValue } from '../../core/json.js';
import { API_VERSION } from '../manifest.js';
import type { DocumentKind, KindDefinition } from '../../core/kind.js';
import type { KindCatalog } from '../../core/kind-catalog.js';

const NAME = '[A-Za-z0-9_.-]{1,128}';

function metadataSchema(catalog: KindCatalog, only?: KindDefinition | DocumentKind): JsonObject {
  const kinds = catalog.kinds.map((k) => k.kind).join('|');
  // A document (a Policy) is never applied: nothing waits for it, nothing protects it.
  if (only && catalog.documentNamed(only.kind)) {
    return {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string', pattern: `^${NAME}$`, description: 'Unique per kind; the address is Kind/name.' } },
    };
  }
  return {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: { type: 'string', pattern: `^${NAME}$`, description: 'Unique per kind; the address is Kind/name.' },
      dependsOn: { type: 'array', items: { type: 'string', pattern: `^(${kinds})/${NAME}$` }, description: 'Addresses applied before this one.' },
      movedFrom: {
        type: 'array',
        items: { type: 'string', pattern: `^(${kinds})/${NAME}$` },
        description: 'Former addresses of this resource (same kind): a rename plans as a move of its state record, not create + orphan.',
      },
      ignoreChanges: {
        type: 'array',
        items: { type: 'string', pattern: '^/' },
        description:
          'Field paths as plan prints them (/tags/*, /properties/containers[name=web]/properties/image) that another system owns: their live value is kept, never a diff.',
      },
      protect: { type: 'boolean', description: 'Refuse delete and replace; a destructive job runs only when apply names it (--allow-destructive ADDR).' },
    },
  };
}

/** A `${env:…}`, `${file:…}` or `${ref:…}` placeholder, which may stand for any leaf value. */
const PLACEHOLDER: JsonObject = {
  type: 'string',
  pattern: '\\$\\{(env|file|ref):[^}]+\\}',
  description: 'A ${env:NAME}, ${file:path} or ${ref:Kind/name#/pointer} placeholder.',
};

/** A copy of a spec schema where every leaf value may also be a placeholder (ajv validation does this by skipping). */
export function allowPlaceholders(schema: JsonValue): JsonValue {
  if (Array.isArray(schema)) return schema.map(allowPlaceholders);
  if (!isObject(schema)) return schema;
  const copy: JsonObject = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === 'enum' || k === 'required' ? v : allowPlaceholders(v)]));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const leaf = types.some((t) => t === 'string' || t === 'number' || t === 'integer' || t === 'boolean');
  return leaf ? { anyOf: [copy, PLACEHOLDER] } : copy;
}

/** The document schema for every kind (`kind` chooses the spec schema), or for one kind. */
export function documentSchema(catalog: KindCatalog, only?: KindDefinition | DocumentKind): JsonObject {
  const kinds = only ? [only] : [...catalog.kinds, ...catalog.documents];
  const schema: JsonObject = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: only ? `moor ${only.kind} manifest` : 'moor manifest',
    description: only ? only.description : 'A moor manifest: apiVersion, kind, metadata and the spec of the kind.',
    type: 'object',
    additionalProperties: false,
    required: ['apiVersion', 'kind', 'metadata', 'spec'],
    properties: {
      apiVersion: { type: 'string', const: API_VERSION },
      kind: { type: 'string', enum: kinds.map((k) => k.kind) },
      metadata: metadataSchema(catalog, only),
      spec: only ? specSchemaOf(catalog, only) : { type: 'object' },
    },
  };
  if (!only) {
    schema.allOf = kinds.map((k) => ({
      if: { properties: { kind: { const: k.kind } }, required: ['kind'] },
      then: { properties: { spec: { ...specSchemaOf(catalog, k), description: k.description } } },
    }));
  }
  return schema;
}

/** A kind's spec schema, where placeholders may stand for values; a document's (a Policy's) is never resolved. */
function specSchemaOf(catalog: KindCatalog, kind: KindDefinition | DocumentKind): JsonObject {
  return catalog.documentNamed(kind.kind) ? kind.specSchema : (allowPlaceholders(kind.specSchema) as JsonObject);
}
