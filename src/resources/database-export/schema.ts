// JSON Schema of the DatabaseExport spec: project, environment, backup name, revision (seed 000).
import type { JsonObject } from '../../engine/json.js';
import { jobRevision, object, pathSegment, projectId } from '../../engine/validate/schema-parts.js';

const revision = jobRevision('export');

export const specSchema: JsonObject = object({
  projectId,
  environmentId: pathSegment,
  backupName: pathSegment,
  revision,
}, ['projectId', 'environmentId', 'backupName', 'revision']);
