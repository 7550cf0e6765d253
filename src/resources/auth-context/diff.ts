// Diff rules of an auth context: only the id is fixed; everything else is patched in place.
import type { DiffRules } from '../../core/kind.js';

export const sensitive: readonly string[] = [];

export const diffRules: DiffRules = {
  serverPopulated: [],
  writeOnly: [],
  immutable: ['id'],
  arrayKeys: {},
  // PATCH of the changed properties only: a property the manifest never set is left alone.
  writes: { summary: 'PATCH of the changed properties', whole: [] },
};
