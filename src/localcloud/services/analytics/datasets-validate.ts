// Validation of push-dataset requests (CreateDatasetRequest, table PUT) with the service's limits.

import { asSent } from '../../as-sent.js';

export const MAX_TABLES = 75;
export const MAX_COLUMNS = 75;
export const MAX_RELATIONSHIPS = 75;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Table and relationship names: letters, digits, spaces and a few symbols, 1 to 100 characters. */
const TABLE_NAME = /^[\p{L}\p{N} _.()-]{1,100}$/u;
/** Column and measure names: printable, no control characters or brackets. */
const MEMBER_NAME = /^[^\p{Cc}[\]]{1,100}$/u;
/**
 * Column types as the service spells them in answers. It reads them ignoring case, and its list is
 * open (the seed shows only the types that occur), so any other non-empty name is accepted as sent.
 */
export const DATA_TYPES = ['Int64', 'Double', 'Decimal', 'Boolean', 'DateTime', 'String'] as const;
export const DATASET_MODES = ['AsVendor', 'AsOnPrem', 'Push', 'Streaming', 'PushStreaming'] as const;
export const RETENTION_POLICIES = ['None', 'basicFIFO'] as const;
const CROSS_FILTERING = ['OneDirection', 'BothDirections', 'Automatic'];

export type Obj = Record<string, unknown>;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(owner: Obj, key: string, where: string): string | undefined {
  const value = owner[key];
  if (value === undefined || value === null || typeof value === 'string') return undefined;
  return `${where}: '${key}' must be a string.`;
}

function optionalBoolean(owner: Obj, key: string, where: string): string | undefined {
  const value = owner[key];
  if (value === undefined || typeof value === 'boolean') return undefined;
  return `${where}: '${key}' must be a boolean.`;
}

function columnProblem(column: unknown, where: string, names: readonly string[]): string | undefined {
  if (!isObj(column)) return `${where} must be an object.`;
  if (typeof column.name !== 'string' || !MEMBER_NAME.test(column.name))
    return `${where}: 'name' is required: 1 to 100 printable characters without '[' or ']'.`;
  const at = `${where} '${column.name}'`;
  if (typeof column.dataType !== 'string' || column.dataType.trim() === '') {
    return `${at}: 'dataType' is required: a type name such as ${DATA_TYPES.join(', ')}.`;
  }
  if (column.sortByColumn !== undefined && !names.includes(asSent(column.sortByColumn))) {
    return `${at}: sortByColumn '${asSent(column.sortByColumn)}' is not a column of the same table.`;
  }
  return (
    optionalString(column, 'formatString', at) ??
    optionalString(column, 'dataCategory', at) ??
    optionalString(column, 'summarizeBy', at) ??
    optionalBoolean(column, 'isHidden', at)
  );
}

function measureProblem(measure: unknown, where: string): string | undefined {
  if (!isObj(measure)) return `${where} must be an object.`;
  if (typeof measure.name !== 'string' || !MEMBER_NAME.test(measure.name)) return `${where}: 'name' is required: 1 to 100 printable characters.`;
  const at = `${where} '${measure.name}'`;
  if (typeof measure.expression !== 'string' || measure.expression.trim() === '') return `${at}: 'expression' (DAX) is required.`;
  return optionalString(measure, 'description', at) ?? optionalString(measure, 'formatString', at) ?? optionalBoolean(measure, 'isHidden', at);
}

function duplicate(names: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (seen.has(key)) return name;
    seen.add(key);
  }
  return undefined;
}

/** Problems of a table's columns and measures (shared by create and table PUT). */
export function tableSchemaProblem(table: Obj, where: string): string | undefined {
  const columns = table.columns ?? [];
  if (!Array.isArray(columns)) return `${where}: 'columns' must be an array.`;
  if (columns.length > MAX_COLUMNS) return `${where}: ${columns.length} columns exceed the limit of ${MAX_COLUMNS} columns per table.`;
  const names = columns.map((c) => (isObj(c) ? String(c.name) : ''));
  for (let i = 0; i < columns.length; i++) {
    const problem = columnProblem(columns[i], `${where} column ${i}`, names);
    if (problem) return problem;
  }
  const measures = table.measures ?? [];
  if (!Array.isArray(measures)) return `${where}: 'measures' must be an array.`;
  for (let i = 0; i < measures.length; i++) {
    const problem = measureProblem(measures[i], `${where} measure ${i}`);
    if (problem) return problem;
  }
  const dup = duplicate([...names, ...measures.map((m) => String((m as Obj).name))]);
  if (dup) return `${where}: the name '${dup}' is used twice among columns and measures.`;
  return optionalString(table, 'description', where) ?? optionalBoolean(table, 'isHidden', where);
}

function tableProblem(table: unknown, index: number): string | undefined {
  if (!isObj(table)) return `Table ${index} must be an object.`;
  if (typeof table.name !== 'string' || !TABLE_NAME.test(table.name)) {
    return `Table ${index}: name '${asSent(table.name ?? '')}' must be 1 to 100 letters, digits, spaces, '_', '-', '.', '(' or ')'.`;
  }
  if (table.columns === undefined) return `Table '${table.name}': 'columns' is required.`;
  return tableSchemaProblem(table, `Table '${table.name}'`);
}

function columnsOf(tables: readonly Obj[], tableName: unknown): string[] | undefined {
  const table = tables.find((t) => t.name === tableName);
  return table ? ((table.columns as Obj[] | undefined) ?? []).map((c) => String(c.name)) : undefined;
}

/** Problems of one relationship given the dataset's tables. */
export function relationshipProblem(rel: unknown, index: number, tables: readonly Obj[]): string | undefined {
  if (!isObj(rel)) return `Relationship ${index} must be an object.`;
  if (typeof rel.name !== 'string' || !TABLE_NAME.test(rel.name)) return `Relationship ${index}: 'name' must be 1 to 100 characters.`;
  const at = `Relationship '${rel.name}'`;
  for (const side of ['from', 'to'] as const) {
    const table = rel[`${side}Table`];
    const column = rel[`${side}Column`];
    const columns = columnsOf(tables, table);
    if (!columns) return `${at}: ${side}Table '${String(table)}' is not a table of the dataset.`;
    if (!columns.includes(String(column))) return `${at}: ${side}Column '${String(column)}' is not a column of table '${String(table)}'.`;
  }
  const filtering = rel.crossFilteringBehavior;
  if (filtering !== undefined && !CROSS_FILTERING.includes(asSent(filtering))) {
    return `${at}: crossFilteringBehavior '${asSent(filtering)}' is not one of ${CROSS_FILTERING.join(', ')}.`;
  }
  return undefined;
}

function relationshipsProblem(relationships: unknown, tables: readonly Obj[]): string | undefined {
  if (relationships === undefined) return undefined;
  if (!Array.isArray(relationships)) return "'relationships' must be an array.";
  if (relationships.length > MAX_RELATIONSHIPS) return `${relationships.length} relationships exceed the limit of ${MAX_RELATIONSHIPS}.`;
  for (let i = 0; i < relationships.length; i++) {
    const problem = relationshipProblem(relationships[i], i, tables);
    if (problem) return problem;
  }
  return undefined;
}

/** Why a CreateDatasetRequest is refused, or undefined when it is valid. */
export function createDatasetProblem(body: unknown): string | undefined {
  if (!isObj(body)) return 'The request body must be a CreateDatasetRequest JSON object.';
  if (typeof body.name !== 'string' || body.name.trim() === '') return "'name' is required.";
  if (!Array.isArray(body.tables) || body.tables.length === 0) return "'tables' is required and must list at least one table.";
  if (body.tables.length > MAX_TABLES) return `${body.tables.length} tables exceed the limit of ${MAX_TABLES} tables per dataset.`;
  for (let i = 0; i < body.tables.length; i++) {
    const problem = tableProblem(body.tables[i], i);
    if (problem) return problem;
  }
  const dup = duplicate(body.tables.map((t: Obj) => String(t.name)));
  if (dup) return `The table name '${dup}' is used twice.`;
  if (body.defaultMode !== undefined && !(DATASET_MODES as readonly unknown[]).includes(body.defaultMode)) {
    return `defaultMode '${asSent(body.defaultMode)}' is not one of ${DATASET_MODES.join(', ')}.`;
  }
  if (body.datasources !== undefined && !Array.isArray(body.datasources)) return "'datasources' must be an array.";
  return relationshipsProblem(body.relationships, body.tables as Obj[]);
}
