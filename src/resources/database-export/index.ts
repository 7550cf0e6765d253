// The DatabaseExport kind: An export of an environment's database to the asset library (database movement).
import type { JobKind } from '../../core/kind.js';
import { specSchema } from './schema.js';
import { checkSpec } from './rules.js';
import { job } from './handler.js';

export const DatabaseExport: JobKind = {
  kind: 'DatabaseExport',
  category: 'job',
  description: "An export of an environment's database to the asset library (database movement).",
  specSchema,
  sensitive: [],
  // Recorded in the runs (project, environment, revision) whatever supplies them.
  addressing: ['projectId', 'environmentId', 'revision'],
  checkSpec,
  job,
  typicalStepSeconds: 600, // an export job runs for minutes
};
