// JSON Schema of the DatabaseExport spec: project, environment, backup name, revision (seed 000).
import type { JsonObject } from '../../engine/json.js';
import { object, pathSegment } from '../../engine/validate/schema-parts.js';

/** YAML reads `projectId: 1234567` as a number; either way it is one path segment. */
const projectId: JsonObject = { type: ['string', 'integer'], pattern: '^[^/\\\\?#%\\s]+$', patternErrorMessage: 'must be a single path segment', minLength: 1 };
const revision: JsonObject = { type: ['string', 'number'], minLength: 1, description: 'Any value; the export runs again only when it changes (compared as a string).' };

export const specSchema: JsonObject = object({
  projectId,
  environmentId: pathSegment,
  backupName: pathSegment,
  revision,
}, ['projectId', 'environmentId', 'backupName', 'revision']);
