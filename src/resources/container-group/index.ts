// The ContainerGroup kind: A group of containers sharing network, volumes and identity (seed 001).
import type { ResourceKind } from '../../core/kind.js';
import { specSchema } from './schema.js';
import { checkSpec } from './rules.js';
import { resource } from './handler.js';
import { diffRules, sensitive, transientOutputs } from './diff.js';

export const ContainerGroup: ResourceKind = {
  kind: 'ContainerGroup',
  category: 'resource',
  description: 'A group of containers sharing network, volumes and identity (seed 001).',
  specSchema,
  sensitive,
  addressing: ['subscriptionId', 'resourceGroup', 'name'],
  diff: diffRules,
  checkSpec,
  resource,
  typicalStepSeconds: 30, // provisioning takes tens of seconds
  transientOutputs,
};
