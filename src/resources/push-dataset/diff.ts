// Diff rules of a push dataset: only an existing table's columns and measures change in place;
// anything else replaces the dataset and loses its pushed rows (SERVICES.md).
import type { DiffRules } from '../../core/kind.js';

export const sensitive: readonly string[] = [];

export const diffRules: DiffRules = {
  serverPopulated: ['id'],
  // Never returned by GET (rows, a table's source, retention, mode, relationships, datasources): compared against state only.
  writeOnly: ['tables/*/rows', 'tables/*/source', 'defaultRetentionPolicy', 'defaultMode', 'relationships', 'datasources'],
  immutable: [
    'workspaceId',
    'name',
    'defaultRetentionPolicy',
    'defaultMode',
    'relationships',
    'datasources',
    'tables/*/rows',
    'tables/*/source',
    'tables/*/isHidden',
    'tables/*/description',
  ],
  immutableMembership: ['tables'],
  arrayKeys: {
    tables: 'name',
    'tables/*/columns': 'name',
    'tables/*/measures': 'name',
    relationships: 'name',
  },
  // A table PUT replaces that table's columns and measures; anything else is a replace (a POST of everything).
  writes: { summary: 'table PUT of columns and measures (POST of everything on a replace)', whole: ['tables/*/columns', 'tables/*/measures'] },
  // The service reads column types ignoring case and may answer another spelling than was sent.
  compare: { 'tables/*/columns/*/dataType': 'ignoreCase' },
};
