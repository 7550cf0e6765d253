// JSON Schema of the DatabaseRefresh spec: project, source and target environments, revision.
import type { JsonObject } from '../../core/json.js';
import { jobRevision, object, pathSegment, projectId } from '../../core/schema-parts.js';

const revision = jobRevision('refresh');

export const specSchema: JsonObject = object(
  {
    projectId,
    sourceEnvironmentId: pathSegment,
    targetEnvironmentId: pathSegment,
    revision,
    exportTargetFirst: object({ backupName: pathSegment }, ['backupName']),
  },
  ['projectId', 'sourceEnvironmentId', 'targetEnvironmentId', 'revision'],
);
