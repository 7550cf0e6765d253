// The state's tables on a connection: created once when missing, and the catalog asked once per connection,
// even when a replica's stacks start their first cycles on one lease session at the same moment.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import { ensureFleetSchema, ensureSchema } from '../../src/engine/state/postgres-schema.js';
import { describeWithPostgres, PG_URL } from './postgres-env.js';

/** A connection whose search path is a new, empty schema, and what it was asked; the schema is dropped after `fn`. */
async function inEmptySchema(fn: (client: pg.Client, asked: string[]) => Promise<void>): Promise<void> {
  const schema = `moor_test_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
    const asked: string[] = [];
    const query = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    (client as unknown as { query: typeof query }).query = (text, values) => {
      asked.push(text);
      return query(text, values);
    };
    await fn(client, asked);
  } finally {
    await client.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
    await client.end();
  }
}

const catalogLooks = (asked: readonly string[]) => asked.filter((q) => q.includes('pg_catalog.pg_tables')).length;

describeWithPostgres('PostgreSQL state: its tables', () => {
  it('checks and creates them once per connection when many ask at the same moment', async () => {
    await inEmptySchema(async (client, asked) => {
      await Promise.all(Array.from({ length: 8 }, () => ensureSchema(client)));
      expect(catalogLooks(asked)).toBe(1);
      expect(asked.filter((q) => q === 'BEGIN')).toHaveLength(1);
      const tables = await client.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1');
      expect(tables.rows.map((r) => r.tablename)).toEqual(['moor_history', 'moor_lock', 'moor_resource', 'moor_state']);
      await ensureSchema(client);
      expect(catalogLooks(asked)).toBe(1);
    });
  });

  it("a fleet's check adds the replicas' tables and asks again only for them", async () => {
    await inEmptySchema(async (client, asked) => {
      await ensureSchema(client);
      await Promise.all([ensureFleetSchema(client), ensureFleetSchema(client)]);
      expect(catalogLooks(asked)).toBe(2);
      const tables = await client.query<{ tablename: string }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'moor_watch%'",
      );
      expect(tables.rows.map((r) => r.tablename).sort()).toEqual(['moor_watch_lease', 'moor_watch_replica']);
    });
  });
});
