// PostgreSQL state whose server runs out of disk mid-apply (a trigger refuses writes with SQLSTATE
// 53100, disk_full): a create goes out only after its intent is recorded, and once the server has
// space again the next apply converges without a duplicate dataset.
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureSchema } from '../../src/engine/state/postgres-schema.js';
import { describeWithPostgres, PG_URL, workspaceUrl } from '../state/postgres-env.js';
import { datasetIdsNamed, datasetManifest, moor, startCloud, workdir, type Cloud } from './harness.js';

const NAMES = Array.from({ length: 5 }, (_, i) => `pg${i}`);
/** Each dataset after the first depends on the one before, so their records are written one at a time. */
const chained = (name: string, i: number) =>
  i === 0 ? datasetManifest(name) : datasetManifest(name).replace(`name: ${name}\n`, `name: ${name}\n  dependsOn: [PushDataset/${NAMES[i - 1]}]\n`);

/** Rows of moor_resource the workspace may still write (an upsert fires BEFORE INSERT once per row); disk_full after that. */
const DISK_FULL_SQL = `
CREATE TABLE IF NOT EXISTS moor_test_disk_room (workspace text PRIMARY KEY, rows_left integer NOT NULL);
CREATE OR REPLACE FUNCTION moor_test_disk_full() RETURNS trigger AS $$
DECLARE left_now integer;
BEGIN
  UPDATE moor_test_disk_room SET rows_left = rows_left - 1 WHERE workspace = NEW.workspace RETURNING rows_left INTO left_now;
  IF left_now IS NOT NULL AND left_now < 0 THEN
    RAISE EXCEPTION 'could not extend file "base/5/16390": No space left on device' USING ERRCODE = '53100', HINT = 'Check free disk space.';
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS moor_test_disk_full ON moor_resource;
CREATE TRIGGER moor_test_disk_full BEFORE INSERT ON moor_resource FOR EACH ROW EXECUTE FUNCTION moor_test_disk_full();`;

describeWithPostgres('apply with PostgreSQL state on a server whose disk runs full', () => {
  let cloud: Cloud;
  let db: pg.Client;
  const state = workspaceUrl('disk-full');
  const workspace = new URL(state).searchParams.get('workspace')!;
  beforeAll(async () => {
    cloud = await startCloud();
    db = new pg.Client({ connectionString: PG_URL });
    await db.connect();
    await ensureSchema(db); // the trigger needs moor's tables, which a first run would create
    await db.query(DISK_FULL_SQL);
  });
  afterAll(async () => {
    await (db as pg.Client | undefined)?.query(`DELETE FROM moor_test_disk_room WHERE workspace = $1`, [workspace]).catch(() => undefined); // unset if beforeAll failed
    await (db as pg.Client | undefined)?.end(); // unset if beforeAll failed
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('no dataset exists at the service without a recorded intent, and the next apply creates only the missing ones', async () => {
    const dir = workdir(Object.fromEntries(NAMES.map((n, i) => [`m/${n}.yaml`, chained(n, i)])));
    // Room for two datasets' intent and outcome: the third one's intent is refused.
    await db.query(`INSERT INTO moor_test_disk_room (workspace, rows_left) VALUES ($1, 4)`, [workspace]);
    const full = await moor(dir, cloud, ['apply', 'm', '--auto-approve'], { MOOR_STATE: state });
    const out = full.stdout + full.stderr;
    expect(full.code, out).toBe(1);
    expect(out).toMatch(/PushDataset\/pg2: failed .*the create was not sent, because state could not record it first: .*disk is full/);
    const recorded = (await db.query<{ address: string }>(`SELECT address FROM moor_resource WHERE workspace = $1`, [workspace])).rows.map((r) => r.address);
    for (const name of NAMES) {
      const ids = await datasetIdsNamed(cloud, name);
      if (ids.length > 0) expect(recorded, `${name} exists at the service without a record in state`).toContain(`PushDataset/${name}`);
    }
    expect(await datasetIdsNamed(cloud, 'pg1')).toHaveLength(1);
    expect(await datasetIdsNamed(cloud, 'pg2')).toHaveLength(0);

    await db.query(`DELETE FROM moor_test_disk_room WHERE workspace = $1`, [workspace]);
    const again = await moor(dir, cloud, ['apply', 'm', '--auto-approve'], { MOOR_STATE: state });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    for (const name of NAMES) expect(await datasetIdsNamed(cloud, name), name).toHaveLength(1);
    const plan = await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode'], { MOOR_STATE: state });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
