// JSON Schema of the DatabaseExport spec: project, environment, backup name, revision.
import type { JsonObject } from '../../core/json.js';
import { jobRevision, object, pathSegment, projectId } from '../../core/schema-parts.js';

const revision = jobRevision('export');

export const specSchema: JsonObject = object(
  {
    projectId,
    environmentId: pathSegment,
    backupName: pathSegment,
    revision,
  },
  ['projectId', 'environmentId', 'backupName', 'revision'],
);
