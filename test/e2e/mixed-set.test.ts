// Every managed kind in one manifest set: dependency order and concurrency of apply, and
// convergence under injected faults without a duplicate dataset or a second refresh.
import { afterEach, describe, expect, test } from 'vitest';
import {
  ARM_PATH,
  AUTH_PATH,
  authManifest,
  cloudRequest,
  datasetIdsNamed,
  datasetManifest,
  ENV,
  exportManifest,
  groupManifest,
  moor,
  operationsOf,
  readState,
  refreshManifest,
  startCloud,
  workdir,
  type Cloud,
} from './harness.js';

/** Index of the first stderr line of `address` that matches. */
function lineOf(lines: readonly string[], address: string, what: RegExp): number {
  const i = lines.findIndex((l) => l.startsWith(`${address}: `) && what.test(l.slice(address.length + 2)));
  if (i < 0) throw new Error(`no line of ${address} matching ${what} in:\n${lines.join('\n')}`);
  return i;
}

describe('a mixed manifest set', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test('applies in dependency order, independent changes concurrently, and then has nothing to do', async () => {
    const c = (cloud = await startCloud());
    const dir = workdir({
      'm/secret.txt': 'mixed-secret',
      'm/auth.yaml': authManifest('c21', { displayName: 'Require MFA for admins', isAvailable: true }),
      // The group waits for c21 (dependsOn) and for the dataset whose id it reads (${ref:}).
      'm/web.yaml': groupManifest('web', { extra: '            - name: DATASET_ID\n              value: ${ref:PushDataset/sales#/id}\n' }).replace(
        '  name: web\n',
        '  name: web\n  dependsOn: [AuthContext/c21]\n',
      ),
      'm/sales.yaml': datasetManifest('sales'),
      'm/jobs.yaml': [refreshManifest('uat-from-prod', { revision: '1' }), exportManifest('test-golden', { backupName: 'golden-1', revision: '1' })].join(
        '---\n',
      ),
    });
    const plan = await moor(dir, c, ['plan', 'm']);
    expect(plan.stdout, plan.stderr).toContain('Plan: 3 to create, 0 to update, 0 to replace, 0 to delete, 2 to run.');
    const apply = await moor(dir, c, ['apply', 'm', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const lines = apply.stderr.split('\n');

    // The group waits for the auth context it depends on.
    const groupStarted = lineOf(lines, 'ContainerGroup/web', /^creating\.\.\.$/);
    expect(groupStarted).toBeGreaterThan(lineOf(lines, 'AuthContext/c21', /^created after/));
    expect(groupStarted).toBeGreaterThan(lineOf(lines, 'PushDataset/sales', /^created after/));
    // Everything independent starts before the first change finishes: they run concurrently.
    const independent = [
      lineOf(lines, 'AuthContext/c21', /^creating\.\.\.$/),
      lineOf(lines, 'PushDataset/sales', /^creating\.\.\.$/),
      lineOf(lines, 'DatabaseRefresh/uat-from-prod', /^running\.\.\.$/),
      lineOf(lines, 'DatabaseExport/test-golden', /^running\.\.\.$/),
    ];
    const firstFinished = lines.findIndex((l) => / after \d+(\.\d+)?s$/.test(l));
    expect(Math.max(...independent)).toBeLessThan(firstFinished);

    expect((await cloudRequest(c, 'GET', AUTH_PATH('c21'))).status).toBe(200);
    const [salesId] = await datasetIdsNamed(c, 'sales');
    expect(await datasetIdsNamed(c, 'sales')).toEqual([salesId]);
    const web = await cloudRequest(c, 'GET', ARM_PATH('web'));
    const vars = web.body.properties.containers[0].properties.environmentVariables as { name: string; value?: string }[];
    expect(vars.find((v) => v.name === 'DATASET_ID')?.value).toBe(salesId);
    expect(await operationsOf(c, ENV.uat)).toHaveLength(1);
    expect(await operationsOf(c, ENV.test)).toHaveLength(1);
    const again = await moor(dir, c, ['plan', 'm', '--detailed-exitcode']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  test('with a 30% fault rate, datasets and a refresh converge without a duplicate dataset or a second refresh', async () => {
    const c = (cloud = await startCloud({ failRate: 0.3 }));
    const names = ['orders', 'stock', 'returns', 'budget', 'forecast'];
    const dir = workdir({
      'm/datasets.yaml': names.map((n) => datasetManifest(n)).join('---\n'),
      'm/refresh.yaml': refreshManifest('uat-from-prod', { revision: 'f1' }),
    });
    const refresh = 'DatabaseRefresh/uat-from-prod';
    const lastRun = async () => (await readState(dir)).resources[refresh]?.runs?.at(-1);
    let result = await moor(dir, c, ['apply', 'm', '--auto-approve']);
    let resolvedUnknown = false;
    // A request can exhaust its retries under a 30% fault rate; the next apply picks up the rest.
    for (let i = 0; i < 5 && result.code !== 0; i++) {
      if ((await lastRun())?.outcome === 'unknown') {
        // The answer to the refresh was lost (the fault knob cuts some connections after the
        // request ran): moor cannot know whether it started, never sends it again by itself, and
        // plan keeps failing until a user looks at the service and says what happened.
        const blocked = await moor(dir, c, ['plan', 'm', '--detailed-exitcode']);
        expect(blocked.code, blocked.stdout + blocked.stderr).toBe(1);
        expect(blocked.stdout + blocked.stderr).toContain(`moor state resolve ${refresh}`);
        const happened = (await operationsOf(c, ENV.uat)).length > 0;
        const resolved = await moor(dir, c, ['state', 'resolve', refresh, happened ? '--succeeded' : '--failed']);
        expect(resolved.code, resolved.stdout + resolved.stderr).toBe(0);
        resolvedUnknown = true;
      }
      result = await moor(dir, c, ['apply', 'm', '--auto-approve']);
    }
    expect(result.code, result.stdout + result.stderr).toBe(0);

    for (const n of names) expect(await datasetIdsNamed(c, n), n).toHaveLength(1);
    const refreshes = await operationsOf(c, ENV.uat);
    expect(refreshes.length).toBeLessThanOrEqual(1);
    const run = await lastRun();
    if (resolvedUnknown && run?.resolved === 'succeeded') {
      expect(run.status).toBe('succeeded');
    } else {
      expect(run).toMatchObject({ revision: 'f1', status: 'succeeded' });
      expect(refreshes.map((o) => o.status)).toEqual(['Completed']);
      expect(JSON.stringify(run)).toContain(refreshes[0].activityId);
    }
    // Converged: nothing left to do, and one more apply sends nothing.
    const plan = await moor(dir, c, ['plan', 'm', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect((await moor(dir, c, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    expect(await operationsOf(c, ENV.uat)).toHaveLength(refreshes.length);
    for (const n of names) expect(await datasetIdsNamed(c, n), n).toHaveLength(1);
  });
});
