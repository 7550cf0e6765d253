// moor watch follows what it is given while it runs: a changed stack variable in moor.config.yaml is
// planned with within one interval, and a protected destructive job it may not run is held, never a
// failed cycle that backs off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_PATH, authManifest, cloudRequest, moor, refreshManifest, startCloud, workdir, writeFile, type Cloud } from './harness.js';
import { startWatch, waitFor } from './watch-harness.js';

/** The interval of the watches here, whose cycles the tests wait for: near the product's floor (100ms), so they wait a few cycles' work. */
const CYCLE = '200ms';

const config = (label: string) => `stacks:
  dev:
    paths: [manifests]
    vars: {label: "${label}"}
`;

describe('moor watch follows moor.config.yaml and holds what it may not run', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  it('a stack variable changed in moor.config.yaml is planned with within one interval, without a restart (and applied with --self-heal)', async () => {
    const dir = workdir({ 'moor.config.yaml': config('Forty-two'), 'manifests/c42.yaml': authManifest('c42', { displayName: '${var:label}' }) });
    expect((await moor(dir, cloud, ['apply', '--stack', 'dev', '--auto-approve'])).code).toBe(0);
    const watch = await startWatch(dir, cloud, ['--stack', 'dev', '--interval', CYCLE]);
    try {
      await waitFor(
        async () => (await watch.status()).stacks[0].result === 'in_sync',
        30_000,
        () => `never in sync: ${watch.stderr()}`,
      );
      writeFile(dir, 'moor.config.yaml', config('Forty-two, promoted'));
      const resources = await waitFor(
        async () => {
          const stack = (await watch.status()).stacks[0];
          return stack.result === 'pending' ? stack.resources : undefined;
        },
        30_000,
        () => `the changed variable was never planned: ${watch.stderr()}`,
      );
      expect(resources).toContainEqual(expect.objectContaining({ address: 'AuthContext/c42', status: 'pending', action: 'update' }));
      expect(watch.stderr()).toContain("moor watch: stack dev: moor.config.yaml changed: the stack's variables label; planned with it from this cycle");
      expect(watch.stderr()).toContain('not applied: AuthContext/c42: manifest changed (update)');
    } finally {
      expect((await watch.terminate()).code).toBe(0);
    }

    // With --self-heal the promoted value is applied; a broken config fails the cycle with its message, and its fix is taken up.
    const healing = await startWatch(dir, cloud, ['--stack', 'dev', '--interval', CYCLE, '--self-heal']);
    try {
      await waitFor(
        async () => (await cloudRequest(cloud, 'GET', AUTH_PATH('c42'))).body?.displayName === 'Forty-two, promoted',
        30_000,
        () => `not applied: ${healing.stderr()}`,
      );
      writeFile(dir, 'moor.config.yaml', config('Forty-three').replace('paths: [manifests]', 'paths: [manifests'));
      await waitFor(
        async () => (await healing.status()).stacks[0].result === 'failed',
        30_000,
        () => `broken config not reported: ${healing.stderr()}`,
      );
      expect((await healing.status()).stacks[0].error).toContain('moor.config.yaml');
      writeFile(dir, 'moor.config.yaml', config('Forty-three'));
      await waitFor(
        async () => (await cloudRequest(cloud, 'GET', AUTH_PATH('c42'))).body?.displayName === 'Forty-three',
        30_000,
        () => `fixed config not applied: ${healing.stderr()}`,
      );
    } finally {
      expect((await healing.terminate()).code).toBe(0);
    }
  }, 180_000);

  it('report-only over a protected destructive job that never ran: held every cycle, no failed cycle, no backoff', async () => {
    const address = 'DatabaseRefresh/uat-never-ran';
    const dir = workdir({
      'm/uat.yaml': refreshManifest('uat-never-ran', { revision: 'r1' }).replace('  name: uat-never-ran', '  name: uat-never-ran\n  protect: true'),
    });
    const watch = await startWatch(dir, cloud, ['m', '--interval', CYCLE]);
    try {
      // Cycles keep coming at the interval (a backoff would double the wait after each failed one).
      await waitFor(
        async () => (await watch.status()).stacks[0].runs >= 4,
        60_000,
        () => `cycles stopped: ${watch.stderr()}`,
      );
      const stack = (await watch.status()).stacks[0];
      expect(stack.consecutiveFailures).toBe(0);
      expect(stack.result).toBe('pending');
      expect(stack.resources).toContainEqual(expect.objectContaining({ address, status: 'held' }));
      expect((await watch.sample('moor_reconcile_runs_total', { stack: 'default', result: 'failed' })) ?? 0).toBe(0);
      expect(watch.stderr()).not.toContain('reconcile failed');
    } finally {
      expect((await watch.terminate()).code).toBe(0);
    }
  }, 120_000);
});
