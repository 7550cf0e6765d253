// The PushDataset kind: A push dataset in a workspace of the analytics service.
import type { ResourceKind } from '../../core/kind.js';
import { specSchema } from './schema.js';
import { checkSpec } from './rules.js';
import { resource } from './handler.js';
import { adoption } from './adoption.js';
import { diffRules, sensitive } from './diff.js';

export const PushDataset: ResourceKind = {
  kind: 'PushDataset',
  category: 'resource',
  description: 'A push dataset in a workspace of the analytics service.',
  specSchema,
  sensitive,
  addressing: ['workspaceId', 'name'],
  diff: diffRules,
  checkSpec,
  resource,
  adoption,
};
