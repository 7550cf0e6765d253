// Plan, apply, replace, drift and prune of push datasets: the built CLI against a standalone local cloud.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cloudRequest, datasetIdsNamed, datasetManifest, moor, readState, startCloud, workdir, WORKSPACE, writeFile, type Cloud } from './harness.js';
import { moorProcess } from './processes.js';

const DATASETS = `/v1.0/myorg/groups/${WORKSPACE}/datasets`;

interface Change {
  address: string;
  action: string;
  patch: { op: string; path: string; value?: unknown }[];
  drift: boolean;
  destructive: boolean;
}
const changeOf = (stdout: string, address: string): Change => {
  const found = (JSON.parse(stdout).changes as Change[]).find((c) => c.address === address);
  if (!found) throw new Error(`no change for ${address} in ${stdout}`);
  return found;
};

describe('push dataset lifecycle', () => {
  let cloud: Cloud;
  let dir: string;
  const run = (...args: string[]) => moor(dir, cloud, args);
  const salesId = async () => {
    const ids = await datasetIdsNamed(cloud, 'sales');
    expect(ids).toHaveLength(1);
    return ids[0];
  };
  const tables = async (id: string) => (await cloudRequest(cloud, 'GET', `${DATASETS}/${id}/tables`)).body.value;

  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({ 'm/sales.yaml': datasetManifest('sales'), 'm/vault.yaml': datasetManifest('vault', { protect: true }) });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('apply creates each dataset once and a second plan has nothing to do', async () => {
    const plan = await run('plan', 'm', '--detailed-exitcode');
    expect(plan.stdout).toContain('Plan: 2 to create, 0 to update, 0 to replace, 0 to delete, 0 to run.');
    expect(plan.code).toBe(2);
    const apply = await run('apply', 'm', '--auto-approve');
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const id = await salesId();
    expect((await tables(id)).map((t: { name: string }) => t.name)).toEqual(['Product', 'Orders']);
    expect(await datasetIdsNamed(cloud, 'vault')).toHaveLength(1);
    const again = await run('plan', 'm', '--detailed-exitcode');
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  test("a column's dataType change is an in-place update of that field only, keeping the dataset", async () => {
    const before = await salesId();
    writeFile(dir, 'm/sales.yaml', datasetManifest('sales', { amountType: 'Decimal' }));
    const plan = await run('plan', 'm', '--output', 'json');
    const sales = changeOf(plan.stdout, 'PushDataset/sales');
    expect(sales.action).toBe('update');
    expect(sales.destructive).toBe(false);
    expect(sales.patch).toEqual([{ op: 'replace', path: '/tables/1/columns/2/dataType', value: 'Decimal' }]);
    expect((await run('plan', 'm')).stdout).toMatch(/~ PushDataset\/sales/);
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect(await salesId()).toBe(before);
    expect((await tables(before))[1].columns[2].dataType).toBe('Decimal');
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  });

  test('a new measure on an existing table is an in-place update adding only that measure', async () => {
    const before = await salesId();
    writeFile(dir, 'm/sales.yaml', datasetManifest('sales', { amountType: 'Decimal', extraMeasure: true }));
    const plan = await run('plan', 'm', '--output', 'json');
    const sales = changeOf(plan.stdout, 'PushDataset/sales');
    expect(sales.action).toBe('update');
    expect(sales.patch).toHaveLength(1);
    expect(sales.patch[0]).toMatchObject({ op: 'add', value: { name: 'Count', expression: 'COUNTROWS(Orders)' } });
    expect(sales.patch[0].path).toMatch(/^\/tables\/1\/measures\/(1|-)$/);
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect(await salesId()).toBe(before);
    expect((await tables(before))[1].measures.map((m: { name: string }) => m.name)).toEqual(['Total', 'Count']);
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  });

  test('an added table replaces the dataset (-/+, destructive) with exactly one dataset afterwards', async () => {
    const before = await salesId();
    writeFile(dir, 'm/sales.yaml', datasetManifest('sales', { amountType: 'Decimal', extraMeasure: true, extraTable: true }));
    const json = await run('plan', 'm', '--output', 'json');
    const sales = changeOf(json.stdout, 'PushDataset/sales');
    expect(sales.action).toBe('replace');
    expect(sales.destructive).toBe(true);
    const text = await run('plan', 'm');
    expect(text.stdout).toMatch(/-\/\+ PushDataset\/sales/);
    expect(text.stdout).toContain('Plan: 0 to create, 0 to update, 1 to replace, 0 to delete, 0 to run.');
    const apply = await run('apply', 'm', '--auto-approve');
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const after = await salesId();
    expect(after).not.toBe(before);
    expect((await cloudRequest(cloud, 'GET', `${DATASETS}/${before}`)).status).toBe(404);
    expect((await tables(after)).map((t: { name: string }) => t.name)).toEqual(['Product', 'Orders', 'Returns']);
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  });

  test('a changed relationship replaces the dataset, marked destructive', async () => {
    const before = await salesId();
    writeFile(dir, 'm/sales.yaml', datasetManifest('sales', { amountType: 'Decimal', extraMeasure: true, extraTable: true, crossFiltering: 'BothDirections' }));
    const sales = changeOf((await run('plan', 'm', '--output', 'json')).stdout, 'PushDataset/sales');
    expect(sales.action).toBe('replace');
    expect(sales.destructive).toBe(true);
    expect(sales.patch.map((p) => p.path)).toEqual([expect.stringMatching(/^\/relationships/)]);
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect(await salesId()).not.toBe(before);
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  });

  test('a replace of a protected dataset is refused with exit 1 and nothing changes', async () => {
    const [vaultId] = await datasetIdsNamed(cloud, 'vault');
    const protectedAt = /m\/vault\.yaml:\d+:\d+: error: .*protected \(metadata\.protect\) and would be replaced/;
    writeFile(dir, 'm/vault.yaml', datasetManifest('vault', { protect: true, extraTable: true }));
    try {
      const plan = await run('plan', 'm');
      expect(plan.code).toBe(1);
      expect(plan.stdout + plan.stderr).toMatch(protectedAt);
      const apply = await run('apply', 'm', '--auto-approve');
      expect(apply.code).toBe(1);
      expect(apply.stdout + apply.stderr).toMatch(protectedAt);
      expect(await datasetIdsNamed(cloud, 'vault')).toEqual([vaultId]);
      expect((await tables(vaultId)).map((t: { name: string }) => t.name)).toEqual(['Product', 'Orders']);
    } finally {
      // Later tests start from the unchanged protected dataset.
      writeFile(dir, 'm/vault.yaml', datasetManifest('vault', { protect: true }));
    }
  });

  test('an out-of-band table PUT is drift naming only the changed column field, and apply puts it back', async () => {
    const id = await salesId();
    const product = (await tables(id))[0];
    const put = await cloudRequest(cloud, 'PUT', `${DATASETS}/${id}/tables/Product`, {
      name: 'Product',
      columns: [
        { name: 'ProductID', dataType: 'Int64' },
        { name: 'Name', dataType: 'Int64' },
      ],
      measures: product.measures ?? [],
    });
    expect(put.status).toBe(200);
    const drift = await run('drift', 'm', '--output', 'json');
    expect(drift.code, drift.stdout + drift.stderr).toBe(2);
    const doc = JSON.parse(drift.stdout);
    expect(doc.changes).toHaveLength(1);
    expect(doc.changes[0].address).toBe('PushDataset/sales');
    expect(doc.changes[0].patch).toEqual([{ op: 'replace', path: '/tables/0/columns/1/dataType', value: 'string' }]);
    const plan = changeOf((await run('plan', 'm', '--output', 'json')).stdout, 'PushDataset/sales');
    expect(plan.action).toBe('update');
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    expect(await salesId()).toBe(id);
    expect((await run('drift', 'm')).code).toBe(0);
  });

  test('prune deletes a dataset that left the manifests, and refuses a protected one', async () => {
    const id = await salesId();
    writeFile(dir, 'm/sales.yaml', '# retired\n');
    const pruned = await run('plan', 'm', '--prune');
    expect(pruned.stdout).toMatch(/- PushDataset\/sales/);
    expect((await run('apply', 'm', '--auto-approve', '--prune')).code).toBe(0);
    expect((await cloudRequest(cloud, 'GET', `${DATASETS}/${id}`)).status).toBe(404);
    expect(await datasetIdsNamed(cloud, 'sales')).toEqual([]);
    writeFile(dir, 'm/vault.yaml', '# retired\n');
    const refused = await run('apply', 'm', '--auto-approve', '--prune');
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toMatch(/PushDataset\/vault.*protected/);
    expect(await datasetIdsNamed(cloud, 'vault')).toHaveLength(1);
  });
});

describe('push dataset create interrupted by kill -9', () => {
  let cloud: Cloud | undefined;
  afterAll(async () => {
    await cloud?.stop();
  });

  test('killed after the POST committed but before state recorded the id: the next apply adopts it, no duplicate', async () => {
    // Latency on every request leaves a window between the POST committing and the id being recorded
    // (moor reads the dataset and its tables back first).
    const c = (cloud = await startCloud({ latencyMs: 250 }));
    const dir = workdir({ 'm/ledger.yaml': datasetManifest('ledger') });
    const first = moorProcess(dir, c, ['apply', 'm', '--auto-approve']);
    while ((await datasetIdsNamed(c, 'ledger')).length === 0) {
      if (first.child.exitCode !== null) throw new Error(`apply ended before the dataset was created: ${(await first).stderr}`);
    }
    first.child.kill('SIGKILL');
    await first;
    const record = (await readState(dir)).resources['PushDataset/ledger'];
    // The precondition of this test: the create was sent, its answer never recorded.
    expect(record?.pending?.action, JSON.stringify(record)).toBe('create');
    expect(record.id).toBeUndefined();
    const [created] = await datasetIdsNamed(c, 'ledger');

    const second = await moor(dir, c, ['apply', 'm', '--auto-approve']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(await datasetIdsNamed(c, 'ledger')).toEqual([created]);
    expect((await readState(dir)).resources['PushDataset/ledger']).toMatchObject({ id: created });
    expect((await moor(dir, c, ['plan', 'm', '--detailed-exitcode'])).code).toBe(0);
  });
});
