// The ContainerGroup kind: A group of containers sharing network, volumes and identity (ARM container instances).
import type { ResourceKind } from '../../core/kind.js';
import { specSchema } from './schema.js';
import { checkSpec } from './rules.js';
import { resource } from './handler.js';
import { adoption } from './adoption.js';
import { diffRules, sensitive, transientOutputs } from './diff.js';

export const ContainerGroup: ResourceKind = {
  kind: 'ContainerGroup',
  category: 'resource',
  description: 'A group of containers sharing network, volumes and identity (ARM container instances).',
  specSchema,
  sensitive,
  addressing: ['subscriptionId', 'resourceGroup', 'name'],
  diff: diffRules,
  checkSpec,
  resource,
  adoption,
  typicalStepSeconds: 30, // provisioning takes tens of seconds
  transientOutputs,
};
