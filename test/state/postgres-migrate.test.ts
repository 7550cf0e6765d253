// moor state migrate: file -> PostgreSQL -> file keeps every record (ids, a job's run history, a
// dataset's id), and a plan against the migrated state has nothing to do: no job runs again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authManifest, datasetManifest, exportManifest, moor, startCloud, workdir, type Cloud } from '../e2e/harness.js';
import { describeWithPostgres, PG_PASSWORD, workspaceUrl } from './postgres-env.js';

describeWithPostgres('state migrate between the file and PostgreSQL', () => {
  let cloud: Cloud;
  let dir: string;
  const run = (...args: string[]) => moor(dir, cloud, args);
  const resourcesOf = (file: string) => (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { resources: Record<string, unknown> }).resources;

  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({
      'm/c1.yaml': authManifest('c1', { displayName: 'One' }),
      'm/sales.yaml': datasetManifest('sales'),
      'm/golden.yaml': exportManifest('golden', { backupName: 'golden-r1', revision: 'r1' }),
    });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  it('round trip: identical records, an empty plan on each backend, and the source left alone', async () => {
    const apply = await run('apply', 'm', '--auto-approve', '--state', 'a.json');
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const pg = workspaceUrl('migrate');

    const there = await run('state', 'migrate', '--state', 'a.json', '--to', pg);
    expect(there.code, there.stderr).toBe(0);
    expect(there.stdout).toMatch(/^Migrated 3 records from a\.json to postgres:\/\/[^:]+:\*\*\*@/);
    expect(there.stdout + there.stderr).not.toContain(PG_PASSWORD);
    const planPg = await run('plan', 'm', '--detailed-exitcode', '--state', pg);
    expect(planPg.code, planPg.stdout + planPg.stderr).toBe(0);

    const back = await run('state', 'migrate', '--state', pg, '--to', 'b.json');
    expect(back.code, back.stderr).toBe(0);
    expect(resourcesOf('b.json')).toEqual(resourcesOf('a.json'));
    const job = resourcesOf('b.json')['DatabaseExport/golden'] as { runs: unknown[] };
    expect(job.runs).toHaveLength(1);
    const planFile = await run('plan', 'm', '--detailed-exitcode', '--state', 'b.json');
    expect(planFile.code, planFile.stdout + planFile.stderr).toBe(0);
    expect(Object.keys(resourcesOf('a.json'))).toHaveLength(3);

    // The history of the apply moves with the state, both ways.
    const history = async (state: string) =>
      JSON.parse((await run('history', '--output', 'json', '--state', state)).stdout) as { runs: { counts: { created: number } }[] };
    const original = await history('a.json');
    expect(original.runs).toHaveLength(1);
    expect(original.runs[0].counts.created).toBe(2);
    expect(await history(pg)).toEqual(original);
    expect(await history('b.json')).toEqual(original);
  });

  it('refuses to migrate into state that holds resources', async () => {
    const again = await run('state', 'migrate', '--state', 'a.json', '--to', 'b.json');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('error: b.json already holds 3 resource(s): migrate only into empty state\n');
  });
});
