// The PushDataset handler with a fake analytics client: found by recorded id, lost-answer dedupe, table PUTs.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../core/json.js';
import type { AnalyticsClient, CreateDatasetRequest, DatasetBody, DatasetTable } from '../../providers/analytics.js';
import type { Providers } from '../../providers/providers.js';
import { ServiceError } from '../../providers/service-error.js';
import type { KindContext } from '../../core/kind.js';
import { resource } from './handler.js';

const lost = () =>
  new ServiceError({
    service: 'analytics',
    method: 'POST',
    path: '/x',
    label: 'datasets/sales',
    status: 0,
    serviceMessage: 'connection failed',
    outcomeUnknown: true,
  });

interface Fake {
  ctx: KindContext;
  datasets: Map<string, DatasetBody & { tables: DatasetTable[] }>;
  posts: number;
  puts: [string, DatasetTable][];
  logs: string[];
}

/** A workspace in memory; `postFault` decides per POST: 'ok', 'lost-after-create' or 'lost-before-create'. */
function fake(postFault: (n: number) => 'ok' | 'lost-after-create' | 'lost-before-create' = () => 'ok'): Fake {
  const f: Fake = { ctx: undefined as unknown as KindContext, datasets: new Map(), posts: 0, puts: [], logs: [] };
  let next = 1;
  const add = (req: CreateDatasetRequest): DatasetBody => {
    const id = `ds-${next++}`;
    f.datasets.set(id, { id, name: req.name, tables: req.tables.map((t) => ({ ...t, rows: undefined })) });
    return { id, name: req.name };
  };
  const analytics: Partial<AnalyticsClient> = {
    createDataset: async (_ws, req) => {
      const fault = postFault(++f.posts);
      if (fault === 'lost-before-create') throw lost();
      const made = add(req);
      if (fault === 'lost-after-create') throw lost();
      return made;
    },
    listDatasets: async () => [...f.datasets.values()].map(({ id, name, createdDate }) => ({ id, name, createdDate })),
    getDataset: async (_ws, id) => {
      const d = f.datasets.get(id);
      return d ? { id: d.id, name: d.name } : undefined;
    },
    getTables: async (_ws, id) => f.datasets.get(id)?.tables ?? [],
    putTable: async (_ws, id, table) => {
      f.puts.push([id, table]);
    },
    deleteDataset: async (_ws, id) => {
      f.datasets.delete(id);
    },
  };
  // Only the analytics client is used by this kind.
  f.ctx = { providers: { analytics } as unknown as Providers, log: (m) => f.logs.push(m) };
  return f;
}

const spec: JsonObject = {
  workspaceId: 'ws1',
  name: 'sales',
  defaultRetentionPolicy: 'basicFIFO',
  tables: [
    { name: 'Orders', columns: [{ name: 'id', dataType: 'Int64' }], measures: [{ name: 'n', expression: 'COUNTROWS(Orders)' }] },
    { name: 'Customers', columns: [{ name: 'id', dataType: 'Int64' }], rows: [{ id: '1' }] },
  ],
};

describe('PushDataset handler', () => {
  it('read without a recorded id is undefined, even when a dataset of that name exists', async () => {
    const f = fake();
    await resource.create(f.ctx, 'sales', spec);
    await expect(resource.read(f.ctx, { name: 'sales', spec })).resolves.toBeUndefined();
  });

  it('read after a crashed create (pending, no id) adopts the first same-named dataset made since it was sent', async () => {
    const f = fake();
    const at = (iso: string, id: string, name = 'sales') => f.datasets.set(id, { id, name, createdDate: iso, tables: [] });
    at('2026-01-01T09:00:00Z', 'old');
    at('2026-01-01T10:00:02Z', 'other', 'inventory');
    at('2026-01-01T10:00:03Z', 'ours');
    at('2026-01-01T10:05:00Z', 'later');
    const pendingSince = '2026-01-01T10:00:01Z';
    await expect(resource.read(f.ctx, { name: 'x', spec, pendingSince })).resolves.toMatchObject({ id: 'ours' });
    f.datasets.delete('ours');
    f.datasets.delete('later');
    await expect(resource.read(f.ctx, { name: 'x', spec, pendingSince })).resolves.toBeUndefined();
  });

  it('read by recorded id maps the dataset and tables to the spec shape', async () => {
    const f = fake();
    const created = await resource.create(f.ctx, 'sales', spec);
    const obs = await resource.read(f.ctx, { name: 'sales', spec, recordedId: created.id });
    expect(obs?.spec).toEqual({
      workspaceId: 'ws1',
      name: 'sales',
      tables: [
        { name: 'Orders', columns: [{ name: 'id', dataType: 'Int64' }], measures: [{ name: 'n', expression: 'COUNTROWS(Orders)' }] },
        { name: 'Customers', columns: [{ name: 'id', dataType: 'Int64' }] },
      ],
    });
    expect(obs?.outputs.id).toBe(created.id);
  });

  it('read by an id typed in another casing answers the id as the service has it (what import records)', async () => {
    const f = fake();
    const created = await resource.create(f.ctx, 'sales', spec);
    // A service that finds ids whatever their casing, as GUIDs are.
    const analytics = (f.ctx.providers as unknown as { analytics: AnalyticsClient }).analytics;
    const getDataset = analytics.getDataset.bind(analytics);
    analytics.getDataset = async (ws, id) => getDataset(ws, id.toLowerCase());
    const obs = await resource.read(f.ctx, { name: 'sales', spec, recordedId: created.id.toUpperCase() });
    expect(obs?.id).toBe(created.id);
  });

  it('adopts the dataset a lost POST created instead of creating a duplicate', async () => {
    const f = fake(() => 'lost-after-create');
    const obs = await resource.create(f.ctx, 'sales', spec);
    expect(f.posts).toBe(1);
    expect(f.datasets.size).toBe(1);
    expect(obs.id).toBe('ds-1');
    expect(f.logs.join('\n')).toMatch(/adopting dataset ds-1/);
  });

  it('does not adopt a same-named dataset that existed before the POST', async () => {
    const f = fake((n) => (n === 2 ? 'lost-before-create' : 'ok'));
    await resource.create(f.ctx, 'sales', spec);
    const obs = await resource.create(f.ctx, 'sales', spec);
    expect(f.posts).toBe(3);
    expect(obs.id).toBe('ds-2');
  });

  it('sends again only when the lost POST created nothing, three sends at most', async () => {
    const f = fake((n) => (n === 1 ? 'lost-before-create' : 'ok'));
    await expect(resource.create(f.ctx, 'sales', spec)).resolves.toMatchObject({ id: 'ds-1' });
    expect(f.posts).toBe(2);
    const g = fake(() => 'lost-before-create');
    await expect(resource.create(g.ctx, 'sales', spec)).rejects.toThrow(/outcome is unknown/);
    expect(g.posts).toBe(3);
  });

  it('adopts the dataset when a later send was the one whose answer was lost', async () => {
    const f = fake((n) => (n === 1 ? 'lost-before-create' : 'lost-after-create'));
    await expect(resource.create(f.ctx, 'sales', spec)).resolves.toMatchObject({ id: 'ds-1' });
    expect(f.posts).toBe(2);
    expect(f.datasets.size).toBe(1);
  });

  it('update PUTs only the tables whose columns or measures changed, from the desired spec', async () => {
    const f = fake();
    const created = await resource.create(f.ctx, 'sales', spec);
    const desired = structuredClone(spec);
    ((desired.tables as JsonObject[])[1].columns as JsonObject[]).push({ name: 'email', dataType: 'string' });
    await resource.update(f.ctx, 'sales', desired, created, [['tables', 1, 'columns', 1]]);
    expect(f.puts).toEqual([
      [
        created.id,
        {
          name: 'Customers',
          columns: [
            { name: 'id', dataType: 'Int64' },
            { name: 'email', dataType: 'string' },
          ],
        },
      ],
    ]);
  });

  it('delete deletes by id in the workspace of the last spec, and replace is destructive', async () => {
    const f = fake();
    const created = await resource.create(f.ctx, 'sales', spec);
    await resource.delete(f.ctx, created.id, spec);
    expect(f.datasets.size).toBe(0);
    expect(resource.replaceIsDestructive).toBe(true);
  });
});
