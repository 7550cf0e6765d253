// The DatabaseRefresh kind: A database refresh from a source to a target environment (database movement); overwrites the target.
import type { JobKind } from '../../core/kind.js';
import { specSchema } from './schema.js';
import { checkSpec } from './rules.js';
import { job } from './handler.js';

export const DatabaseRefresh: JobKind = {
  kind: 'DatabaseRefresh',
  category: 'job',
  description: 'A database refresh from a source to a target environment (database movement); overwrites the target.',
  specSchema,
  sensitive: [],
  // Recorded in the runs (project, environments, revision) whatever supplies them.
  addressing: ['projectId', 'sourceEnvironmentId', 'targetEnvironmentId', 'revision'],
  checkSpec,
  job,
  typicalStepSeconds: 900, // a refresh job runs for many minutes
};
