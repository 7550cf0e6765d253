// The AuthContext kind: An authentication-context class reference (Microsoft Graph beta).
import type { ResourceKind } from '../../core/kind.js';
import { specSchema } from './schema.js';
import { checkSpec } from './rules.js';
import { resource } from './handler.js';
import { adoption } from './adoption.js';
import { diffRules, sensitive } from './diff.js';

export const AuthContext: ResourceKind = {
  kind: 'AuthContext',
  category: 'resource',
  description: 'An authentication-context class reference (Microsoft Graph beta).',
  specSchema,
  sensitive,
  addressing: ['id'],
  diff: diffRules,
  checkSpec,
  resource,
  adoption,
};
