// The JSON Schema of a whole manifest document (header plus the spec of each kind), for editors.
import type { JsonObject } from '../json.js';
import { API_VERSION } from '../manifest.js';
import { KINDS } from '../../resources/registry.js';
import type { KindDefinition } from '../../resources/kind.js';

const NAME = '[A-Za-z0-9_.-]{1,128}';

function metadataSchema(): JsonObject {
  const kinds = KINDS.map((k) => k.kind).join('|');
  return {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: { type: 'string', pattern: `^${NAME}$`, description: 'Unique per kind; the address is Kind/name.' },
      dependsOn: { type: 'array', items: { type: 'string', pattern: `^(${kinds})/${NAME}$` }, description: 'Addresses applied before this one.' },
      protect: { type: 'boolean', description: 'Refuse delete, replace and destructive runs.' },
    },
  };
}

/** The document schema for every kind (`kind` chooses the spec schema), or for one kind. */
export function documentSchema(only?: KindDefinition): JsonObject {
  const kinds = only ? [only] : [...KINDS];
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
      metadata: metadataSchema(),
      spec: only ? only.specSchema : { type: 'object' },
    },
  };
  if (!only) {
    schema.allOf = KINDS.map((k) => ({
      if: { properties: { kind: { const: k.kind } }, required: ['kind'] },
      then: { properties: { spec: { ...k.specSchema, description: k.description } } },
    }));
  }
  return schema;
}
