// Cross-reference rules of the PushDataset spec: unique names, relationships and sortByColumn name real columns.
import { type JsonObject, type JsonPath } from '../../core/json.js';
import { itemsOf, literal, reportDuplicates } from '../../core/rule-helpers.js';
import type { Report } from '../../core/kind.js';

export function checkSpec(spec: JsonObject, report: Report): void {
  const tables = itemsOf(spec.tables);
  reportDuplicates(
    tables.map(({ item, index }) => ({ item, path: ['tables', index] })),
    'name',
    'table name',
    report,
  );
  const columnsOf = new Map<string, Set<string>>();
  for (const { item: table, index } of tables) {
    const path: JsonPath = ['tables', index];
    const columns = itemsOf(table.columns);
    reportDuplicates(
      columns.map((c) => ({ item: c.item, path: [...path, 'columns', c.index] })),
      'name',
      'column name',
      report,
    );
    reportDuplicates(
      itemsOf(table.measures).map((m) => ({ item: m.item, path: [...path, 'measures', m.index] })),
      'name',
      'measure name',
      report,
    );
    const names = new Set(columns.map(({ item }) => literal(item.name)).filter((n) => n !== undefined));
    const tableName = literal(table.name);
    if (tableName !== undefined && !columnsOf.has(tableName)) columnsOf.set(tableName, names);
    for (const { item: column, index: c } of columns) {
      const sortBy = literal(column.sortByColumn);
      if (sortBy === undefined) continue;
      if (!names.has(sortBy)) report([...path, 'columns', c, 'sortByColumn'], `sortByColumn "${sortBy}" names no column of table "${tableName ?? ''}"`);
      else if (sortBy === literal(column.name)) report([...path, 'columns', c, 'sortByColumn'], 'sortByColumn must name another column, not the column itself');
    }
  }
  const relationships = itemsOf(spec.relationships);
  reportDuplicates(
    relationships.map(({ item, index }) => ({ item, path: ['relationships', index] })),
    'name',
    'relationship name',
    report,
  );
  for (const { item, index } of relationships) {
    checkEnd(item, ['relationships', index], 'fromTable', 'fromColumn', columnsOf, report);
    checkEnd(item, ['relationships', index], 'toTable', 'toColumn', columnsOf, report);
  }
}

function checkEnd(rel: JsonObject, path: JsonPath, tableKey: string, columnKey: string, columnsOf: ReadonlyMap<string, Set<string>>, report: Report): void {
  const table = literal(rel[tableKey]);
  if (table === undefined) return;
  const columns = columnsOf.get(table);
  if (!columns) {
    report([...path, tableKey], `${tableKey} "${table}" names no table of this dataset`);
    return;
  }
  const column = literal(rel[columnKey]);
  if (column !== undefined && !columns.has(column)) report([...path, columnKey], `${columnKey} "${column}" names no column of table "${table}"`);
}
