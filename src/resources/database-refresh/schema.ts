// JSON Schema of the DatabaseRefresh spec: project, source and target environments, revision (seed 000).
import type { JsonObject } from '../../engine/json.js';
import { object, pathSegment } from '../../engine/validate/schema-parts.js';

/** YAML reads `projectId: 1234567` as a number; either way it is one path segment. */
const projectId: JsonObject = { type: ['string', 'integer'], pattern: '^[^/\\\\?#%\\s]+$', patternErrorMessage: 'must be a single path segment', minLength: 1 };
const revision: JsonObject = { type: ['string', 'number'], minLength: 1, description: 'Any value; the refresh runs again only when it changes (compared as a string).' };

export const specSchema: JsonObject = object({
  projectId,
  sourceEnvironmentId: pathSegment,
  targetEnvironmentId: pathSegment,
  revision,
  exportTargetFirst: object({ backupName: pathSegment }, ['backupName']),
}, ['projectId', 'sourceEnvironmentId', 'targetEnvironmentId', 'revision']);
