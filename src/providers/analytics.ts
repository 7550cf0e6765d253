// The analytics client: push datasets and their tables (and the sibling dataset operations SERVICES.md lists).
import { expectArray, expectItems, expectObject, expectSame, expectString } from './answer-shape.js';
import type { RequestSender, TransportResponse } from './transport.js';

/** A table as created or as PUT (columns and measures replace the existing schema). */
export interface DatasetTable {
  readonly name: string;
  readonly columns?: readonly Readonly<Record<string, unknown>>[];
  readonly measures?: readonly Readonly<Record<string, unknown>>[];
  readonly rows?: readonly Readonly<Record<string, unknown>>[];
  readonly isHidden?: boolean;
  readonly description?: string;
  readonly [field: string]: unknown;
}

/** The analytics service's CreateDatasetRequest. */
export interface CreateDatasetRequest {
  readonly name: string;
  readonly tables: readonly DatasetTable[];
  readonly relationships?: readonly Readonly<Record<string, unknown>>[];
  readonly datasources?: readonly Readonly<Record<string, unknown>>[];
  readonly defaultMode?: string;
}

/** A dataset as returned (a subset of fields, depending on the operation). */
export interface DatasetBody {
  readonly id: string;
  readonly name: string;
  readonly defaultRetentionPolicy?: string;
  readonly [field: string]: unknown;
}

const enc = encodeURIComponent;

export class AnalyticsClient {
  constructor(private readonly t: RequestSender) {}

  private datasets(groupId: string): string {
    return `/v1.0/myorg/groups/${enc(groupId)}/datasets`;
  }

  /**
   * Creates a dataset. Never retried blindly: a lost answer throws ServiceError with
   * outcomeUnknown, and the caller must look for the dataset before trying again.
   */
  async createDataset(groupId: string, request: CreateDatasetRequest, retention?: string): Promise<DatasetBody> {
    const res = await this.t.request({
      method: 'POST',
      path: this.datasets(groupId),
      query: { defaultRetentionPolicy: retention },
      body: request,
      label: `datasets/${request.name}`,
    });
    const dataset = datasetOf(res);
    expectSame(res, 'name', dataset.name, request.name);
    return dataset;
  }

  /** Every dataset of the workspace. */
  async listDatasets(groupId: string): Promise<DatasetBody[]> {
    const res = await this.t.request({ method: 'GET', path: this.datasets(groupId), label: 'datasets' });
    const value = expectArray(res, expectObject(res, res.body, 'a dataset list'), 'value');
    return expectItems(res, value, 'dataset', ['id', 'name']) as DatasetBody[];
  }

  /** The dataset, or undefined when it does not exist. */
  async getDataset(groupId: string, id: string): Promise<DatasetBody | undefined> {
    const res = await this.t.request({ method: 'GET', path: `${this.datasets(groupId)}/${enc(id)}`, label: `datasets/${id}`, accept: [404] });
    if (res.status === 404) return undefined;
    const dataset = datasetOf(res);
    expectSame(res, 'id', dataset.id, id);
    return dataset;
  }

  /** The dataset's tables. */
  async getTables(groupId: string, id: string): Promise<DatasetTable[]> {
    const res = await this.t.request({ method: 'GET', path: `${this.datasets(groupId)}/${enc(id)}/tables`, label: `datasets/${id}/tables` });
    const value = expectArray(res, expectObject(res, res.body, 'a table list'), 'value');
    return expectItems(res, value, 'table', ['name']) as DatasetTable[];
  }

  /** Replaces the columns and measures of an existing table. */
  async putTable(groupId: string, id: string, table: DatasetTable): Promise<void> {
    await this.t.request({
      method: 'PUT',
      path: `${this.datasets(groupId)}/${enc(id)}/tables/${enc(table.name)}`,
      body: table,
      label: `datasets/${id}/tables/${table.name}`,
    });
  }

  /** Deletes the dataset; a missing one is success. */
  async deleteDataset(groupId: string, id: string): Promise<void> {
    await this.t.request({ method: 'DELETE', path: `${this.datasets(groupId)}/${enc(id)}`, label: `datasets/${id}`, accept: [404] });
  }
}

/** A dataset answer: an object with the id and name moor keeps. */
function datasetOf(res: TransportResponse): DatasetBody {
  const body = expectObject(res, res.body, 'a dataset');
  expectString(res, body, 'id');
  expectString(res, body, 'name');
  return body as DatasetBody;
}
