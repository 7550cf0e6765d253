// Unit tests of the local push-dataset handlers: create validation, siblings, table PUT, row pushes.
import { describe, expect, it } from 'vitest';
import {
  createDataset,
  deleteDataset,
  deleteRows,
  getDataset,
  listDatasets,
  listTables,
  postRows,
  putTable,
  ROW_PUSHES_PER_MINUTE,
} from '../../../src/localcloud/services/analytics/datasets.js';
import { fakeContext, request, type FakeContext } from './fake-context.js';

const GROUP = 'f089354e-8366-4e18-aea3-4cb4a3a50b48';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function salesBody(extra: Record<string, unknown> = {}) {
  return {
    name: 'SalesMarketing',
    defaultMode: 'Push',
    tables: [
      {
        name: 'Product',
        columns: [
          { name: 'ProductID', dataType: 'Int64' },
          { name: 'Name', dataType: 'string' },
        ],
      },
      {
        name: 'Sales',
        columns: [
          { name: 'ProductID', dataType: 'Int64' },
          { name: 'Amount', dataType: 'Double' },
        ],
        measures: [{ name: 'Total', expression: 'SUM(Sales[Amount])' }],
      },
    ],
    relationships: [{ name: 'r1', fromTable: 'Sales', fromColumn: 'ProductID', toTable: 'Product', toColumn: 'ProductID' }],
    ...extra,
  };
}

function create(ctx: FakeContext, body: unknown, query: Record<string, string> = {}, group = GROUP) {
  return createDataset(request('POST', `/v1.0/myorg/groups/${group}/datasets`, { params: { groupId: group }, body, query }), ctx);
}

const errorOf = (res: { body?: unknown }) => (res.body as { error: { code: string; message: string } }).error;
const idOf = (res: { body?: unknown }) => (res.body as { id: string }).id;
const params = (datasetId: string, tableName?: string) => ({ groupId: GROUP, datasetId, ...(tableName ? { tableName } : {}) });

describe('push dataset create', () => {
  it('answers 201 with id, name and defaultRetentionPolicy', () => {
    const ctx = fakeContext();
    const res = create(ctx, salesBody(), { defaultRetentionPolicy: 'basicFIFO' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'SalesMarketing', defaultRetentionPolicy: 'basicFIFO' });
    expect(idOf(res)).toMatch(UUID);
    expect(ctx.saves).toBe(1);
  });

  it.each(['Streaming', 'PushStreaming'])('answers 202 when defaultMode is %s', (mode) => {
    expect(create(fakeContext(), salesBody({ defaultMode: mode })).status).toBe(202);
  });

  it('makes two datasets for two POSTs with the same name', () => {
    const ctx = fakeContext();
    const a = idOf(create(ctx, salesBody()));
    const b = idOf(create(ctx, salesBody()));
    expect(a).not.toBe(b);
    const list = listDatasets(request('GET', '/', { params: { groupId: GROUP } }), ctx).body as { value: { id: string; name: string }[] };
    expect(list.value.map((d) => d.id)).toEqual([a, b]);
    expect(list.value.every((d) => d.name === 'SalesMarketing')).toBe(true);
  });

  const many = (n: number, make: (i: number) => unknown) => Array.from({ length: n }, (_, i) => make(i));
  it.each([
    ['a group id that is not a UUID', salesBody(), {}, 'not-a-uuid', 'UUID'],
    ['a missing name', { tables: salesBody().tables }, {}, GROUP, "'name'"],
    ['missing tables', { name: 'x' }, {}, GROUP, "'tables'"],
    ['an unknown retention policy', salesBody(), { defaultRetentionPolicy: 'forever' }, GROUP, 'defaultRetentionPolicy'],
    ['a table name with a forbidden character', salesBody({ tables: [{ name: 'a/b', columns: [] }], relationships: [] }), {}, GROUP, 'Table 0'],
    ['a table name over 100 characters', salesBody({ tables: [{ name: 'x'.repeat(101), columns: [] }], relationships: [] }), {}, GROUP, 'Table 0'],
    ['76 tables', salesBody({ tables: many(76, (i) => ({ name: `t${i}`, columns: [] })), relationships: [] }), {}, GROUP, 'limit of 75 tables'],
    [
      '76 columns',
      salesBody({ tables: [{ name: 't', columns: many(76, (i) => ({ name: `c${i}`, dataType: 'Int64' })) }], relationships: [] }),
      {},
      GROUP,
      'limit of 75 columns',
    ],
    [
      '76 relationships',
      salesBody({
        relationships: many(76, (i) => ({ name: `r${i}`, fromTable: 'Sales', fromColumn: 'ProductID', toTable: 'Product', toColumn: 'ProductID' })),
      }),
      {},
      GROUP,
      'limit of 75',
    ],
    [
      'a column without a dataType (any type name is accepted: the list is open)',
      salesBody({ tables: [{ name: 't', columns: [{ name: 'c' }] }], relationships: [] }),
      {},
      GROUP,
      "'dataType' is required",
    ],
    ['an unknown defaultMode', salesBody({ defaultMode: 'Import' }), {}, GROUP, "defaultMode 'Import'"],
    [
      'a relationship naming a missing table',
      salesBody({ relationships: [{ name: 'r', fromTable: 'Nope', fromColumn: 'a', toTable: 'Product', toColumn: 'ProductID' }] }),
      {},
      GROUP,
      "fromTable 'Nope'",
    ],
    [
      'a relationship naming a missing column',
      salesBody({ relationships: [{ name: 'r', fromTable: 'Sales', fromColumn: 'Nope', toTable: 'Product', toColumn: 'ProductID' }] }),
      {},
      GROUP,
      "fromColumn 'Nope'",
    ],
    [
      'a sortByColumn naming a missing column',
      salesBody({ tables: [{ name: 't', columns: [{ name: 'c', dataType: 'Int64', sortByColumn: 'zz' }] }], relationships: [] }),
      {},
      GROUP,
      "sortByColumn 'zz'",
    ],
    [
      'two tables with one name',
      salesBody({
        tables: [
          { name: 't', columns: [] },
          { name: 'T', columns: [] },
        ],
        relationships: [],
      }),
      {},
      GROUP,
      'used twice',
    ],
  ])('refuses %s with 400 InvalidRequest naming the problem', (_reason, body, query, group, fragment) => {
    const ctx = fakeContext();
    const res = create(ctx, body, query, group);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe('InvalidRequest');
    expect(errorOf(res).message).toContain(fragment);
    expect(ctx.saves).toBe(0);
  });

  it('accepts every documented dataType spelling', () => {
    const columns = ['Int64', 'Double', 'Boolean', 'bool', 'Datetime', 'DateTime', 'String', 'string', 'Decimal'].map((dataType, i) => ({
      name: `c${i}`,
      dataType,
    }));
    expect(create(fakeContext(), { name: 'x', tables: [{ name: 't', columns }] }).status).toBe(201);
  });
});

describe('push dataset siblings', () => {
  it('gets a dataset with the push-dataset fields and without relationships or mode', () => {
    const ctx = fakeContext();
    const id = idOf(create(ctx, salesBody()));
    const res = getDataset(request('GET', '/', { params: params(id) }), ctx);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: 'SalesMarketing', addRowsAPIEnabled: true, isRefreshable: false, isEffectiveIdentityRequired: false });
    expect(res.body).not.toHaveProperty('relationships');
    expect(res.body).not.toHaveProperty('defaultMode');
    expect((res.body as { createdDate: string }).createdDate).toBe('2026-01-01T00:00:00.000Z');
  });

  it('lists tables with columns and measures but no rows', () => {
    const ctx = fakeContext();
    const body = salesBody();
    (body.tables[0] as Record<string, unknown>).rows = [{ ProductID: 1, Name: 'a' }];
    const id = idOf(create(ctx, body));
    const tables = (listTables(request('GET', '/', { params: params(id) }), ctx).body as { value: Record<string, unknown>[] }).value;
    expect(tables.map((t) => t.name)).toEqual(['Product', 'Sales']);
    expect(tables[1].measures).toEqual([{ name: 'Total', expression: 'SUM(Sales[Amount])' }]);
    expect(tables[0]).not.toHaveProperty('rows');
  });

  it('answers 404 ItemNotFound for an unknown dataset, or one of another workspace', () => {
    const ctx = fakeContext();
    const id = idOf(create(ctx, salesBody()));
    const other = { ...params(id), groupId: '11111111-2222-4333-8444-555555555555' };
    for (const res of [
      getDataset(request('GET', '/', { params: params('0b7d5a2e-0000-4000-8000-000000000000') }), ctx),
      getDataset(request('GET', '/', { params: other }), ctx),
      deleteDataset(request('DELETE', '/', { params: params('0b7d5a2e-0000-4000-8000-000000000000') }), ctx),
    ]) {
      expect(res.status).toBe(404);
      expect(errorOf(res).code).toBe('ItemNotFound');
    }
  });

  it('deletes with 200, after which GET is 404', () => {
    const ctx = fakeContext();
    const id = idOf(create(ctx, salesBody()));
    expect(deleteDataset(request('DELETE', '/', { params: params(id) }), ctx).status).toBe(200);
    expect(getDataset(request('GET', '/', { params: params(id) }), ctx).status).toBe(404);
  });
});

describe('push dataset table PUT', () => {
  const put = (ctx: FakeContext, id: string, table: string, body: unknown) => putTable(request('PUT', '/', { params: params(id, table), body }), ctx);

  it('replaces the columns and measures of an existing table', () => {
    const ctx = fakeContext();
    const id = idOf(create(ctx, salesBody()));
    const res = put(ctx, id, 'Product', {
      name: 'Product',
      columns: [
        { name: 'ProductID', dataType: 'Int64' },
        { name: 'Colour', dataType: 'string' },
      ],
    });
    expect(res.status).toBe(200);
    const tables = (listTables(request('GET', '/', { params: params(id) }), ctx).body as { value: { name: string; columns: { name: string }[] }[] }).value;
    expect(tables[0].columns.map((c) => c.name)).toEqual(['ProductID', 'Colour']);
  });

  it('answers 404 ItemNotFound for a table the dataset does not have (tables cannot be added)', () => {
    const ctx = fakeContext();
    const id = idOf(create(ctx, salesBody()));
    const res = put(ctx, id, 'Customers', { name: 'Customers', columns: [] });
    expect(res.status).toBe(404);
    expect(errorOf(res).code).toBe('ItemNotFound');
  });

  it.each([
    ['a body name that differs from the path', { name: 'Other', columns: [] }, 'does not match'],
    ['a column a relationship needs removed', { name: 'Product', columns: [{ name: 'Name', dataType: 'string' }] }, 'breaks a relationship'],
    ['an invalid column', { name: 'Product', columns: [{ name: 'x', dataType: 42 }] }, "'dataType' is required"],
    ['no columns', { name: 'Product' }, "'columns' is required"],
  ])('refuses %s with 400', (_reason, body, fragment) => {
    const ctx = fakeContext();
    const id = idOf(create(ctx, salesBody()));
    const res = put(ctx, id, 'Product', body);
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toContain(fragment);
  });
});

describe('push dataset rows', () => {
  const push = (ctx: FakeContext, id: string, body: unknown = { rows: [{ ProductID: 1 }] }) =>
    postRows(request('POST', '/', { params: params(id, 'Sales'), body }), ctx);

  it('accepts rows with 200 and deletes them with 200', () => {
    const ctx = fakeContext();
    const id = idOf(create(ctx, salesBody()));
    expect(push(ctx, id).status).toBe(200);
    expect(deleteRows(request('DELETE', '/', { params: params(id, 'Sales') }), ctx).status).toBe(200);
  });

  it('refuses a body without a rows array', () => {
    const ctx = fakeContext();
    const id = idOf(create(ctx, salesBody()));
    expect(push(ctx, id, { row: [] }).status).toBe(400);
  });

  it(`answers 429 with Retry-After after ${ROW_PUSHES_PER_MINUTE} pushes in a minute, and accepts again later`, () => {
    const ctx = fakeContext();
    const id = idOf(create(ctx, salesBody()));
    for (let i = 0; i < ROW_PUSHES_PER_MINUTE; i++) expect(push(ctx, id).status).toBe(200);
    const limited = push(ctx, id);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers?.['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(errorOf(limited).code).toBe('TooManyRequests');
    ctx.advance(60_001);
    expect(push(ctx, id).status).toBe(200);
  });

  it('counts the limit per dataset', () => {
    const ctx = fakeContext();
    const a = idOf(create(ctx, salesBody()));
    const b = idOf(create(ctx, salesBody()));
    for (let i = 0; i < ROW_PUSHES_PER_MINUTE; i++) push(ctx, a);
    expect(push(ctx, a).status).toBe(429);
    expect(push(ctx, b).status).toBe(200);
  });
});
