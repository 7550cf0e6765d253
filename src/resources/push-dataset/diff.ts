// Diff rules of a push dataset: only an existing table's columns and measures change in place;
// anything else replaces the dataset and loses its pushed rows (SERVICES.md).
import type { DiffRules } from '../kind.js';

export const sensitive: readonly string[] = [];

export const diffRules: DiffRules = {
  serverPopulated: ['id'],
  // Never returned by GET (rows, retention, mode, relationships, datasources): compared against state only.
  writeOnly: ['tables/*/rows', 'defaultRetentionPolicy', 'defaultMode', 'relationships', 'datasources'],
  immutable: [
    'workspaceId', 'name', 'defaultRetentionPolicy', 'defaultMode', 'relationships', 'datasources',
    'tables/*/rows', 'tables/*/source', 'tables/*/isHidden', 'tables/*/description',
  ],
  immutableMembership: ['tables'],
  arrayKeys: {
    tables: 'name',
    'tables/*/columns': 'name',
    'tables/*/measures': 'name',
    relationships: 'name',
  },
};
