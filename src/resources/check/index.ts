// The Check kind: A precondition evaluated during plan: quota, name availability, eventstream, spend.
import type { CheckKind } from '../../core/kind.js';
import { specSchema } from './schema.js';
import { checkSpec } from './rules.js';
import { check } from './handler.js';

export const Check: CheckKind = {
  kind: 'Check',
  category: 'check',
  description: 'A precondition evaluated during plan: quota, name availability, eventstream, spend.',
  specSchema,
  sensitive: [],
  checkSpec,
  check,
};
