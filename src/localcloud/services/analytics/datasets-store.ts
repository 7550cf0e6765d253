// The stored form of local push datasets and the views the analytics API returns of them.
import type { ServiceContext } from '../../types.js';
import { DATA_TYPES, type Obj } from './datasets-validate.js';

/** Who the local service says configured every dataset (there is no real signed-in user). */
export const CONFIGURED_BY = 'local-user@moor.localhost';

export interface StoredDataset {
  id: string;
  groupId: string;
  name: string;
  defaultRetentionPolicy: string;
  /** Kept internal: the real GET does not return the mode. */
  defaultMode: string;
  tables: Obj[];
  /** Kept internal: the real GET does not return relationships. */
  relationships: Obj[];
  datasources: Obj[];
  createdDate: string;
  /** Rows pushed per table (the local cloud counts rows; it does not keep them). */
  rowCounts: Record<string, number>;
  /** Times (ms) of recent row pushes, for the per-dataset rate limit. */
  pushes: number[];
}

export function datasets(ctx: ServiceContext): Record<string, StoredDataset> {
  ctx.data.datasets ??= {};
  return ctx.data.datasets as Record<string, StoredDataset>;
}

export function groupPath(ctx: ServiceContext, groupId: string): string {
  return `${ctx.baseUrl}/v1.0/myorg/groups/${groupId}`;
}

/** The Dataset object of a GET (the subset of the service's dataset fields a push dataset has). */
export function datasetView(ctx: ServiceContext, d: StoredDataset): Obj {
  return {
    id: d.id,
    name: d.name,
    webUrl: `${ctx.baseUrl}/groups/${d.groupId}/datasets/${d.id}`,
    addRowsAPIEnabled: true,
    configuredBy: CONFIGURED_BY,
    isRefreshable: false,
    isEffectiveIdentityRequired: false,
    isEffectiveIdentityRolesRequired: false,
    isOnPremGatewayRequired: false,
    targetStorageMode: 'Abf',
    createdDate: d.createdDate,
    createReportEmbedURL: `${ctx.baseUrl}/reportEmbed?config=${d.id}`,
    qnaEmbedURL: `${ctx.baseUrl}/qnaEmbed?config=${d.id}`,
    ContentProviderType: contentProviderType(d.defaultMode),
    isInPlaceSharingEnabled: false,
    queryScaleOutSettings: { autoSyncReadOnlyReplicas: true, maxReadOnlyReplicas: 0 },
    upstreamDataflows: [],
    upstreamDatasets: [],
    users: [],
  };
}

/** Seed 002's content provider type of a pushed or streamed dataset. */
function contentProviderType(mode: string): string {
  if (mode === 'Streaming') return 'RealTimeInStreamingMode';
  return 'RealTimeInPushMode';
}

/** A table as GET tables returns it: schema only, never rows. */
export function tableView(table: Obj): Obj {
  const columns = Array.isArray(table.columns) ? table.columns.map(columnView) : [];
  const view: Obj = { name: table.name, columns, measures: table.measures ?? [] };
  if (table.isHidden !== undefined) view.isHidden = table.isHidden;
  if (table.description !== undefined) view.description = table.description;
  return view;
}

/** A column as the service answers it: a known type in the service's spelling, whatever casing was sent. */
function columnView(column: unknown): unknown {
  if (typeof column !== 'object' || column === null || typeof (column as Obj).dataType !== 'string') return column;
  const sent = (column as Obj).dataType as string;
  const known = DATA_TYPES.find((t) => t.toLowerCase() === sent.toLowerCase());
  return known ? { ...column, dataType: known } : column;
}

/** The stored schema of a table of a create request (rows are counted, not kept). */
export function storedTable(table: Obj): Obj {
  const { rows: _rows, ...schema } = table;
  return { ...schema, columns: schema.columns ?? [], measures: schema.measures ?? [] };
}

export function findTable(d: StoredDataset, name: string): Obj | undefined {
  return d.tables.find((t) => String(t.name).toLowerCase() === name.toLowerCase());
}
