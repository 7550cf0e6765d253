// Maps a push-dataset spec to the create request and table bodies, and the service's dataset back to the spec shape.
import type { JsonObject, JsonValue } from '../../core/json.js';
import type { CreateDatasetRequest, DatasetBody, DatasetTable } from '../../providers/analytics.js';

const REQUEST_FIELDS = ['tables', 'relationships', 'datasources', 'defaultMode'] as const;
const TABLE_FIELDS = ['name', 'columns', 'measures', 'isHidden', 'description'] as const;
const DATASET_FIELDS = ['defaultRetentionPolicy', 'defaultMode', 'relationships', 'datasources'] as const;

/** The dataset name: `spec.name`, defaulting to the manifest name. */
export function datasetName(name: string, spec: JsonObject): string {
  return typeof spec.name === 'string' ? spec.name : name;
}

/** The analytics service's CreateDatasetRequest from the spec (addressing fields left out). */
export function createRequestOf(name: string, spec: JsonObject): CreateDatasetRequest {
  const body: Record<string, unknown> = { name: datasetName(name, spec) };
  for (const f of REQUEST_FIELDS) if (Object.hasOwn(spec, f)) body[f] = spec[f];
  body.tables ??= [];
  return body as unknown as CreateDatasetRequest;
}

/** The body of a table PUT: its name and the new schema (columns, measures). */
export function tableBodyOf(table: JsonObject): DatasetTable {
  const body: Record<string, unknown> = { name: table.name };
  if (Object.hasOwn(table, 'columns')) body.columns = table.columns;
  if (Object.hasOwn(table, 'measures')) body.measures = table.measures;
  return body as DatasetTable;
}

function pick(source: Readonly<Record<string, unknown>>, fields: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const f of fields) {
    const v = source[f];
    if (v !== undefined && v !== null) out[f] = v as JsonValue;
  }
  return out;
}

/** The live dataset in the spec's shape; fields the service does not return are left out. */
export function specOf(workspaceId: string, dataset: DatasetBody, tables: readonly DatasetTable[]): JsonObject {
  return {
    workspaceId,
    name: dataset.name,
    ...pick(dataset, DATASET_FIELDS),
    tables: tables.map((t) => pick(t, TABLE_FIELDS)),
  };
}

/** What ${ref:} reads: the dataset as returned, with its tables. */
export function outputsOf(workspaceId: string, dataset: DatasetBody, tables: readonly DatasetTable[]): JsonObject {
  return { ...(dataset as unknown as JsonObject), workspaceId, tables: tables as unknown as JsonValue };
}
