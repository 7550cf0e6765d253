// import verifies what it adopts; prune has guard rails (protect for every kind, job history
// kept, no mass delete by accident) and deletes dependents first. Built CLI, local cloud over HTTP.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ARM_PATH,
  AUTH_PATH,
  authManifest,
  cloudRequest,
  datasetManifest,
  ENV,
  exportManifest,
  groupBody,
  groupManifest,
  moor,
  operationsOf,
  putBehindMoor,
  readState,
  startCloud,
  SUB,
  WORKSPACE,
  workdir,
  writeFile,
  type Cloud,
} from './harness.js';

const armId = (name: string) => `/subscriptions/${SUB}/resourceGroups/rg-e2e/providers/Vendor.ContainerInstance/containerGroups/${name}`;
const DATASETS = `/v1.0/myorg/groups/${WORKSPACE}/datasets`;
const GROUP_BODY = groupBody('s');
const withProtect = (yaml: string, name: string) => yaml.replace(`  name: ${name}\n`, `  name: ${name}\n  protect: true\n`);

describe('import verifies what it adopts', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test("a wrong id or another group's id is refused, state unchanged", async () => {
    for (const name of ['imp-web', 'imp-worker']) expect((await putBehindMoor(cloud, ARM_PATH(name), GROUP_BODY)).status).toBe(201);
    const dir = workdir({ 'm/secret.txt': 's', 'm/web.yaml': groupManifest('imp-web'), 'm/worker.yaml': groupManifest('imp-worker') });
    const garbage = await moor(dir, cloud, ['import', 'ContainerGroup/imp-worker', 'garbage', 'm']);
    expect(garbage.code).toBe(1);
    expect(garbage.stderr).toContain('garbage is not the resource of ContainerGroup/imp-worker: it is not a container group id');
    const other = await moor(dir, cloud, ['import', 'ContainerGroup/imp-worker', armId('imp-web'), 'm']);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("its name is imp-web, the manifest's is imp-worker; nothing was imported");
    const elsewhere = await moor(dir, cloud, ['import', 'ContainerGroup/imp-worker', armId('imp-worker').replace('rg-e2e', 'rg-other'), 'm']);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(/was not found|its resource group is rg-other/);
    expect(garbage.stderr + other.stderr + elsewhere.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(existsSync(join(dir, '.moor/state.json')) ? Object.keys((await readState(dir)).resources) : []).toEqual([]);
    // The right id is accepted, whatever its casing, and kept as the service answers it; the same id under a second address is not.
    const shouted = armId('imp-worker').replace('rg-e2e', 'RG-E2E').replace('imp-worker', 'IMP-WORKER').replace('/subscriptions/', '/SUBSCRIPTIONS/');
    const imported = await moor(dir, cloud, ['import', 'ContainerGroup/imp-worker', shouted, 'm']);
    expect(imported.code, imported.stderr).toBe(0);
    expect((await readState(dir)).resources['ContainerGroup/imp-worker'].id).toBe(armId('imp-worker'));
    writeFile(dir, 'm/twin.yaml', groupManifest('imp-twin').replace('  resourceGroup: rg-e2e\n', '  resourceGroup: rg-e2e\n  name: imp-worker\n'));
    const twin = await moor(dir, cloud, ['import', 'ContainerGroup/imp-twin', armId('imp-worker'), 'm']);
    expect(twin.code).toBe(1);
    expect(twin.stderr).toContain('is already in state as ContainerGroup/imp-worker');
    expect(Object.keys((await readState(dir)).resources)).toEqual(['ContainerGroup/imp-worker']);
  });

  test('an unchanged push dataset made elsewhere imports to a no-op plan (mode and relationships are never returned)', async () => {
    const dir = workdir({ 'm/legacy.yaml': datasetManifest('legacy-sales') });
    const body = {
      name: 'legacy-sales',
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
          name: 'Orders',
          columns: [
            { name: 'OrderID', dataType: 'Int64' },
            { name: 'ProductID', dataType: 'Int64' },
            { name: 'Amount', dataType: 'Double' },
          ],
          measures: [{ name: 'Total', expression: 'SUM(Orders[Amount])' }],
        },
      ],
      relationships: [
        {
          name: 'OrdersToProduct',
          fromTable: 'Orders',
          fromColumn: 'ProductID',
          toTable: 'Product',
          toColumn: 'ProductID',
          crossFilteringBehavior: 'OneDirection',
        },
      ],
    };
    const made = await cloudRequest(cloud, 'POST', `${DATASETS}?defaultRetentionPolicy=basicFIFO`, body);
    expect(made.status).toBe(201);
    const imported = await moor(dir, cloud, ['import', 'PushDataset/legacy-sales', made.body.id, 'm']);
    expect(imported.code, imported.stderr).toBe(0);
    const plan = await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    // A dataset of another name is not this manifest's.
    const dir2 = workdir({ 'm/other.yaml': datasetManifest('other-sales') });
    const refused = await moor(dir2, cloud, ['import', 'PushDataset/other-sales', made.body.id, 'm']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("its name is legacy-sales, the manifest's is other-sales");
  });
});

describe('prune guard rails', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('a protected job is refused; an unprotected job keeps its run history, so its return does not rerun it', async () => {
    const job = exportManifest('golden', { environment: ENV.test, backupName: 'golden-1', revision: '1' });
    const dir = workdir({ 'm/job.yaml': job, 'm/keep.yaml': authManifest('keep', { id: 'c40', displayName: 'Keep' }) });
    const run = (...args: string[]) => moor(dir, cloud, args);
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    // Protected after it ran: the no-op apply records the protection.
    writeFile(dir, 'm/job.yaml', withProtect(job, 'golden'));
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect((await readState(dir)).resources['DatabaseExport/golden'].protect).toBe(true);
    writeFile(dir, 'm/job.yaml', '# retired\n');
    const refused = await run('apply', 'm', '--auto-approve', '--prune');
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toMatch(/DatabaseExport\/golden.*protected/);
    expect((await readState(dir)).resources['DatabaseExport/golden'].runs).toHaveLength(1);
    // Unprotected: prune keeps the record; the manifest returning with the same revision is a no-op.
    writeFile(dir, 'm/job.yaml', job);
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    writeFile(dir, 'm/job.yaml', '# retired\n');
    const pruned = await run('apply', 'm', '--auto-approve', '--prune');
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    expect(pruned.stdout + pruned.stderr).toContain('prune keeps its run history');
    writeFile(dir, 'm/job.yaml', job);
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
    expect((await operationsOf(cloud, ENV.test)).map((o) => o.backupName)).toEqual(['golden-1']);
  });

  test('prune with no manifests, or with fewer than half of state, is refused without --allow-mass-delete', async () => {
    const dir = workdir({
      'm/a.yaml': authManifest('mass-a', { id: 'c41', displayName: 'A' }),
      'm/b.yaml': authManifest('mass-b', { id: 'c42', displayName: 'B' }),
      'm/c.yaml': authManifest('mass-c', { id: 'c43', displayName: 'C' }),
      'empty/README.md': 'no manifests here\n',
    });
    const run = (...args: string[]) => moor(dir, cloud, args);
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    const empty = await run('plan', 'empty', '--prune');
    expect(empty.code).toBe(1);
    expect(empty.stdout + empty.stderr).toContain('--prune would delete 3 of the 3 resources in state, and no manifests were found');
    expect((await run('apply', 'empty', '--prune', '--auto-approve')).code).toBe(1);
    writeFile(dir, 'm/b.yaml', '# retired\n');
    writeFile(dir, 'm/c.yaml', '# retired\n');
    const most = await run('apply', 'm', '--prune', '--auto-approve');
    expect(most.code).toBe(1);
    expect(most.stdout + most.stderr).toContain('the manifests name only 1 of them');
    for (const id of ['c41', 'c42', 'c43']) expect((await cloudRequest(cloud, 'GET', AUTH_PATH(id))).status).toBe(200);
    const allowed = await run('plan', 'm', '--prune', '--allow-mass-delete');
    expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('2 to delete');
    // The plan records --allow-mass-delete: applying it needs the flag no more.
    expect((await run('plan', 'm', '--prune', '--allow-mass-delete', '--out', 'mass.json')).code).toBe(0);
    const applied = await run('apply', '--plan', 'mass.json');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('2 deleted');
    for (const id of ['c42', 'c43']) expect((await cloudRequest(cloud, 'GET', AUTH_PATH(id))).status).toBe(404);
    expect((await cloudRequest(cloud, 'GET', AUTH_PATH('c41'))).status).toBe(200);
  });

  test('pruned deletes run dependents first, in reverse dependency order recorded in state', async () => {
    const db = groupManifest('pr-db');
    const app = groupManifest('pr-app', { extra: '            - name: DB_HOST\n              value: ${ref:ContainerGroup/pr-db#/name}\n' });
    const auth = authManifest('pr-auth', { id: 'c44', displayName: 'App' }, ['ContainerGroup/pr-app']);
    const dir = workdir({ 'm/secret.txt': 's', 'm/db.yaml': db, 'm/app.yaml': app, 'm/auth.yaml': auth });
    const run = (...args: string[]) => moor(dir, cloud, args);
    const applied = await run('apply', 'm', '--auto-approve');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const state = await readState(dir);
    expect(state.resources['ContainerGroup/pr-app'].dependsOn).toEqual(['ContainerGroup/pr-db']);
    expect(state.resources['AuthContext/pr-auth'].dependsOn).toEqual(['ContainerGroup/pr-app']);
    expect(state.resources['ContainerGroup/pr-db'].dependsOn).toBeUndefined();
    for (const f of ['db', 'app', 'auth']) writeFile(dir, `m/${f}.yaml`, '# retired\n');
    // plan and apply list the deletes as they run: dependents first.
    const listed = (out: string) => [...out.matchAll(/^ {2}- (\S+) will be deleted/gm)].map((m) => m[1]);
    const order = ['AuthContext/pr-auth', 'ContainerGroup/pr-app', 'ContainerGroup/pr-db'];
    expect(listed((await run('plan', 'm', '--prune', '--allow-mass-delete')).stdout)).toEqual(order);
    const pruned = await run('apply', 'm', '--auto-approve', '--prune', '--allow-mass-delete', '--parallelism', '10');
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    expect(listed(pruned.stdout)).toEqual(order);
    const at = (line: string) => {
      const i = pruned.stderr.indexOf(line);
      expect(i, `${line} in:\n${pruned.stderr}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    expect(at('AuthContext/pr-auth: deleted')).toBeLessThan(at('ContainerGroup/pr-app: deleting'));
    expect(at('ContainerGroup/pr-app: deleted')).toBeLessThan(at('ContainerGroup/pr-db: deleting'));
    for (const name of ['pr-db', 'pr-app']) expect((await cloudRequest(cloud, 'GET', ARM_PATH(name))).status).toBe(404);
    expect((await cloudRequest(cloud, 'GET', AUTH_PATH('c44'))).status).toBe(404);
    expect((await readState(dir)).resources).toEqual({});
  });
});
