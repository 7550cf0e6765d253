// Local analytics service: push datasets of a workspace and the sibling operations users expect.
import { randomUUID } from 'node:crypto';
import { ownEntry } from '../../own-entry.js';
import type { LocalRequest, LocalResponse, LocalService, ServiceContext } from '../../types.js';
import { createDatasetProblem, isUuid, relationshipProblem, RETENTION_POLICIES, tableSchemaProblem, type Obj } from './datasets-validate.js';
import { datasets, datasetView, findTable, groupPath, storedTable, tableView, type StoredDataset } from './datasets-store.js';

const BASE = '/v1.0/myorg/groups/:groupId/datasets';
/** Row pushes allowed per dataset per minute; more answer 429. */
export const ROW_PUSHES_PER_MINUTE = 120;
/** Rows one push request may carry. */
export const MAX_ROWS_PER_PUSH = 10_000;
/** Rows a basicFIFO table keeps; older rows leave first. */
const FIFO_ROWS = 200_000;

export function analyticsErrorBody(code: string, message: string): unknown {
  return { error: { code, message } };
}

function fail(status: number, code: string, message: string): LocalResponse {
  return { status, body: analyticsErrorBody(code, message) };
}

const invalid = (message: string): LocalResponse => fail(400, 'InvalidRequest', message);

/** The 400 for a malformed group id, or undefined. */
function badGroup(req: LocalRequest): LocalResponse | undefined {
  return isUuid(req.params.groupId) ? undefined : invalid(`groupId '${req.params.groupId}' is not a valid UUID.`);
}

type Found = { dataset: StoredDataset } | { response: LocalResponse };

function findDataset(req: LocalRequest, ctx: ServiceContext): Found {
  const bad = badGroup(req);
  if (bad) return { response: bad };
  const dataset = ownEntry(datasets(ctx), req.params.datasetId);
  if (dataset?.groupId.toLowerCase() !== req.params.groupId.toLowerCase()) {
    return { response: fail(404, 'ItemNotFound', `Dataset '${req.params.datasetId}' was not found in workspace '${req.params.groupId}'.`) };
  }
  return { dataset };
}

function retentionOf(req: LocalRequest): string | LocalResponse {
  const asked = req.url.searchParams.get('defaultRetentionPolicy');
  if (asked === null) return 'None';
  const policy = RETENTION_POLICIES.find((p) => p.toLowerCase() === asked.toLowerCase());
  return policy ?? invalid(`defaultRetentionPolicy '${asked}' is not one of ${RETENTION_POLICIES.join(', ')}.`);
}

export function createDataset(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const bad = badGroup(req);
  if (bad) return bad;
  const retention = retentionOf(req);
  if (typeof retention !== 'string') return retention;
  const problem = createDatasetProblem(req.body);
  if (problem) return invalid(problem);
  const body = req.body as Obj;
  const tables = (body.tables as Obj[]).map(storedTable);
  const dataset: StoredDataset = {
    id: randomUUID(),
    groupId: req.params.groupId.toLowerCase(),
    name: String(body.name),
    defaultRetentionPolicy: retention,
    defaultMode: (body.defaultMode as string | undefined) ?? 'Push', // one of DATASET_MODES: createDatasetProblem checked it
    tables,
    relationships: (body.relationships as Obj[] | undefined) ?? [],
    datasources: (body.datasources as Obj[] | undefined) ?? [],
    createdDate: ctx.now().toISOString(),
    rowCounts: Object.fromEntries((body.tables as Obj[]).map((t) => [String(t.name), Array.isArray(t.rows) ? t.rows.length : 0])),
    pushes: [],
  };
  datasets(ctx)[dataset.id] = dataset;
  ctx.save();
  const streaming = dataset.defaultMode === 'Streaming' || dataset.defaultMode === 'PushStreaming';
  return {
    status: streaming ? 202 : 201,
    headers: { location: `${groupPath(ctx, req.params.groupId)}/datasets/${dataset.id}` },
    body: {
      '@odata.context': `${groupPath(ctx, req.params.groupId)}/$metadata#datasets/$entity`,
      id: dataset.id,
      name: dataset.name,
      defaultRetentionPolicy: dataset.defaultRetentionPolicy,
    },
  };
}

export function listDatasets(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const bad = badGroup(req);
  if (bad) return bad;
  const group = req.params.groupId.toLowerCase();
  const value = Object.values(datasets(ctx))
    .filter((d) => d.groupId === group)
    .sort((a, b) => a.createdDate.localeCompare(b.createdDate))
    .map((d) => datasetView(ctx, d));
  return { status: 200, body: { '@odata.context': `${groupPath(ctx, req.params.groupId)}/$metadata#datasets`, value } };
}

export function getDataset(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const found = findDataset(req, ctx);
  if ('response' in found) return found.response;
  const body = { '@odata.context': `${groupPath(ctx, req.params.groupId)}/$metadata#datasets/$entity`, ...datasetView(ctx, found.dataset) };
  return { status: 200, body };
}

export function deleteDataset(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const found = findDataset(req, ctx);
  if ('response' in found) return found.response;
  Reflect.deleteProperty(datasets(ctx), found.dataset.id); // the id of a stored dataset
  ctx.save();
  return { status: 200 };
}

export function listTables(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const found = findDataset(req, ctx);
  if ('response' in found) return found.response;
  const context = `${groupPath(ctx, req.params.groupId)}/$metadata#tables`;
  return { status: 200, body: { '@odata.context': context, value: found.dataset.tables.map(tableView) } };
}

type TableFound = { dataset: StoredDataset; table: Obj } | { response: LocalResponse };

function findTableOf(req: LocalRequest, ctx: ServiceContext): TableFound {
  const found = findDataset(req, ctx);
  if ('response' in found) return found;
  const table = findTable(found.dataset, req.params.tableName);
  if (!table) return { response: fail(404, 'ItemNotFound', `Table '${req.params.tableName}' was not found in dataset '${found.dataset.id}'.`) };
  return { dataset: found.dataset, table };
}

/** Replaces the columns and measures of an existing table; relationships must still hold. */
export function putTable(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const found = findTableOf(req, ctx);
  if ('response' in found) return found.response;
  const body = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalid('The request body must be a Table JSON object.');
  const next = body as Obj;
  if (next.name !== found.table.name)
    return invalid(`The table name in the body ('${String(next.name)}') does not match the path ('${String(found.table.name)}').`);
  if (!Array.isArray(next.columns)) return invalid(`Table '${String(next.name)}': 'columns' is required.`);
  const problem = tableSchemaProblem(next, `Table '${String(next.name)}'`);
  if (problem) return invalid(problem);
  const replaced = storedTable({ ...found.table, ...next, measures: next.measures ?? [] });
  const tables = found.dataset.tables.map((t) => (t === found.table ? replaced : t));
  const broken = found.dataset.relationships.map((r, i) => relationshipProblem(r, i, tables)).find((p) => p !== undefined);
  if (broken) return invalid(`The new schema breaks a relationship: ${broken}`);
  found.dataset.tables = tables;
  ctx.save();
  return { status: 200, body: tableView(replaced) };
}

/** Seconds until a push slot frees, or 0 when a push is allowed now (recording it). */
function admitPush(dataset: StoredDataset, now: number): number {
  const windowStart = now - 60_000;
  dataset.pushes = dataset.pushes.filter((t) => t > windowStart);
  if (dataset.pushes.length >= ROW_PUSHES_PER_MINUTE) return Math.max(1, Math.ceil((dataset.pushes[0] - windowStart) / 1000));
  dataset.pushes.push(now);
  return 0;
}

export function postRows(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const found = findTableOf(req, ctx);
  if ('response' in found) return found.response;
  const body = req.body as Obj | undefined;
  const rows = body?.rows;
  if (!Array.isArray(rows)) return invalid('The request body must be {"rows": [...]}.');
  if (rows.length > MAX_ROWS_PER_PUSH) return invalid(`${rows.length} rows exceed the limit of ${MAX_ROWS_PER_PUSH} rows per request.`);
  if (rows.some((r) => typeof r !== 'object' || r === null || Array.isArray(r))) return invalid('Every row must be a JSON object.');
  const wait = admitPush(found.dataset, ctx.now().getTime());
  if (wait > 0) {
    const message = `Rate limit exceeded: at most ${ROW_PUSHES_PER_MINUTE} row pushes per minute per dataset. Retry after ${wait} seconds.`;
    return { ...fail(429, 'TooManyRequests', message), headers: { 'retry-after': String(wait) } };
  }
  const name = String(found.table.name);
  const total = (found.dataset.rowCounts[name] ?? 0) + rows.length;
  found.dataset.rowCounts[name] = found.dataset.defaultRetentionPolicy === 'basicFIFO' ? Math.min(total, FIFO_ROWS) : total;
  ctx.save();
  return { status: 200 };
}

export function deleteRows(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const found = findTableOf(req, ctx);
  if ('response' in found) return found.response;
  found.dataset.rowCounts[String(found.table.name)] = 0;
  ctx.save();
  return { status: 200 };
}

export const analyticsDatasets: LocalService = {
  name: 'analytics',
  routes: [
    { method: 'POST', path: BASE, handler: createDataset, faultAfterCommit: true },
    { method: 'GET', path: BASE, handler: listDatasets },
    { method: 'GET', path: `${BASE}/:datasetId`, handler: getDataset },
    { method: 'DELETE', path: `${BASE}/:datasetId`, handler: deleteDataset },
    { method: 'GET', path: `${BASE}/:datasetId/tables`, handler: listTables },
    { method: 'PUT', path: `${BASE}/:datasetId/tables/:tableName`, handler: putTable },
    { method: 'POST', path: `${BASE}/:datasetId/tables/:tableName/rows`, handler: postRows },
    { method: 'DELETE', path: `${BASE}/:datasetId/tables/:tableName/rows`, handler: deleteRows },
  ],
  errorBody: (_status, code, message) => analyticsErrorBody(code, message),
  responseHeaders: (requestId) => ({ RequestId: requestId }),
};
