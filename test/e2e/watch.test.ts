// moor watch end to end over HTTP: drift reported once (log and metrics), repaired with --self-heal, a manifest
// edit applied without waiting for the interval, history of watch applies, and a clean SIGTERM.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_PATH,
  authManifest,
  cloudRequest,
  ENV,
  moor,
  operationsOf,
  policyManifest,
  refreshManifest,
  startCloud,
  workdir,
  writeFile,
  type Cloud,
} from './harness.js';
import { startWatch, waitFor } from './watch-harness.js';

/**
 * The interval of a watch whose cycles a test waits for (drift seen, repaired, counted): near the product's
 * floor (100ms), so the test waits a few cycles' work, not seconds of timer; the cycles counted stay the same.
 * A watch whose cycles no test waits for keeps a long interval and runs only its first.
 */
const CYCLE = '200ms';

const displayName = async (cloud: Cloud, id: string) => (await cloudRequest(cloud, 'GET', AUTH_PATH(id))).body?.displayName as string | undefined;

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.email=dev@example.net', '-c', 'user.name=dev', ...args], { encoding: 'utf8' }).trim();
}

describe('moor watch', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  it('reports drift once in the log and the metrics, serves health and status, and stops on SIGTERM', async () => {
    const dir = workdir({ 'm/c11.yaml': authManifest('c11', { displayName: 'Eleven' }), 'm/c12.yaml': authManifest('c12', { displayName: 'Twelve' }) });
    expect((await moor(dir, cloud, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    const watch = await startWatch(dir, cloud, ['m', '--interval', CYCLE]);
    let stopped = false;
    try {
      await waitFor(
        async () => (await watch.get('/readyz')).status === 200,
        30_000,
        () => `never ready: ${watch.stderr()}`,
      );
      expect((await watch.get('/healthz')).status).toBe(200);
      expect(await watch.sample('moor_drifted_resources', { stack: 'default' })).toBe(0);
      expect(await watch.sample('moor_resources', { stack: 'default', kind: 'AuthContext', status: 'in_sync' })).toBe(2);

      await cloudRequest(cloud, 'PATCH', AUTH_PATH('c11'), { displayName: 'changed by hand' });
      await waitFor(
        async () => (await watch.sample('moor_drifted_resources', { stack: 'default' })) === 1,
        30_000,
        () => `drift not seen: ${watch.stderr()}`,
      );
      expect(await watch.sample('moor_resources', { stack: 'default', kind: 'AuthContext', status: 'drifted' })).toBe(1);
      const status = await watch.status();
      expect(status.stacks[0].resources).toContainEqual(expect.objectContaining({ address: 'AuthContext/c11', status: 'drifted' }));
      // Reported once, not every cycle; and without --self-heal live stays as it was.
      const runs = async () => (await watch.sample('moor_reconcile_runs_total', { stack: 'default', result: 'drifted' })) ?? 0;
      await waitFor(
        async () => (await runs()) >= 3,
        30_000,
        () => `cycles stopped: ${watch.stderr()}`,
      );
      expect(watch.stderr().match(/drift found: AuthContext\/c11: drifted \(update\)/g)).toHaveLength(1);
      // Every cycle's plan decides the update again (not applied without --self-heal); nothing else was planned.
      expect(await watch.sample('moor_planned_changes_total', { stack: 'default', action: 'update' })).toBeGreaterThanOrEqual(3);
      expect(await watch.sample('moor_planned_changes_total', { stack: 'default', action: 'create' })).toBeUndefined();
      expect(await displayName(cloud, 'c11')).toBe('changed by hand');

      await cloudRequest(cloud, 'PATCH', AUTH_PATH('c11'), { displayName: 'Eleven' });
      await waitFor(
        async () => watch.stderr().includes('in sync again'),
        30_000,
        () => `resolution not seen: ${watch.stderr()}`,
      );
      expect(await watch.sample('moor_drifted_resources', { stack: 'default' })).toBe(0);

      // Request counters per service, from the engine's event stream.
      expect(await watch.sample('moor_requests_total', { service: 'graph' })).toBeGreaterThan(0);
      const families = (await watch.metrics()).map((f) => f.name);
      expect(families).toEqual(
        expect.arrayContaining([
          'moor_reconcile_duration_seconds',
          'moor_last_reconcile_timestamp_seconds',
          'moor_throttled_requests_total',
          'moor_throttle_wait_seconds_total',
        ]),
      );

      const { code, ms } = await watch.terminate();
      stopped = true;
      expect(code).toBe(0);
      expect(ms).toBeLessThan(10_000);
      expect(watch.stderr()).toContain('moor watch: stopped');
    } finally {
      if (!stopped) await watch.terminate();
    }
  }, 180_000);

  it('with --self-heal repairs drift, applies a manifest edit without waiting for the interval, and records the runs in history', async () => {
    const dir = workdir({ 'm/c13.yaml': authManifest('c13', { displayName: 'Thirteen' }) });
    git(dir, 'init', '-q');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'c13');
    const watch = await startWatch(dir, cloud, ['m', '--interval', CYCLE, '--self-heal']);
    let stopped = false;
    try {
      await waitFor(
        async () => (await displayName(cloud, 'c13')) === 'Thirteen',
        30_000,
        () => `never created: ${watch.stderr()}`,
      );
      await waitFor(
        async () => watch.stderr().includes('in sync again'),
        30_000,
        () => `never in sync: ${watch.stderr()}`,
      );
      const patched = await cloudRequest(cloud, 'PATCH', AUTH_PATH('c13'), { displayName: 'changed by hand' });
      expect(patched.status, JSON.stringify(patched.body)).toBeLessThan(300);
      await waitFor(
        async () => watch.stderr().includes('repaired: AuthContext/c13: drifted (update)'),
        30_000,
        () => `not repaired: ${watch.stderr()}`,
      );
      expect(await displayName(cloud, 'c13')).toBe('Thirteen');
      expect(await watch.sample('moor_reconcile_runs_total', { stack: 'default', result: 'healed' })).toBeGreaterThanOrEqual(2);
      const { code } = await watch.terminate();
      stopped = true;
      expect(code).toBe(0);
    } finally {
      if (!stopped) await watch.terminate();
    }

    // A long interval: the edit is applied because the file changed, not because the interval came round.
    const slow = await startWatch(dir, cloud, ['m', '--interval', '10m', '--self-heal']);
    try {
      await waitFor(
        async () => (await slow.get('/readyz')).status === 200,
        30_000,
        () => `never ready: ${slow.stderr()}`,
      );
      writeFile(dir, 'm/c13.yaml', authManifest('c13', { displayName: 'Thirteen, edited' }));
      await waitFor(
        async () => (await displayName(cloud, 'c13')) === 'Thirteen, edited',
        30_000,
        () => `edit not applied: ${slow.stderr()}`,
      );
    } finally {
      expect((await slow.terminate()).code).toBe(0);
    }

    const history = await moor(dir, cloud, ['history', '--output', 'json']);
    const runs = (
      JSON.parse(history.stdout) as { runs: { command: string; commit?: string; changes: { address: string; action: string; result: string }[] }[] }
    ).runs;
    expect(runs.every((r) => r.command === 'watch')).toBe(true);
    expect(runs.map((r) => r.changes[0]?.action)).toEqual(['update', 'update', 'create']);
    expect(runs[1].commit).toBe(git(dir, 'rev-parse', 'HEAD'));
  }, 240_000);

  it('--self-heal applies under the Policy documents, as apply does: a change a policy forbids is refused, the rest repaired', async () => {
    const policy = policyManifest('c20-changed-by-people', '{kinds: [AuthContext]}', [
      {
        expression: "change == null || change.action != 'update' || object.metadata.name != 'c20'",
        message: 'c20 is changed only by a person',
      },
    ]);
    const dir = workdir({
      'm/c20.yaml': authManifest('c20', { displayName: 'Twenty' }),
      'm/c21.yaml': authManifest('c21', { displayName: 'Twenty-one' }),
      'm/policy.yaml': policy,
    });
    const watch = await startWatch(dir, cloud, ['m', '--interval', CYCLE, '--self-heal']);
    try {
      await waitFor(
        async () => (await displayName(cloud, 'c20')) === 'Twenty' && (await displayName(cloud, 'c21')) === 'Twenty-one',
        30_000,
        () => `never created: ${watch.stderr()}`,
      );
      await cloudRequest(cloud, 'PATCH', AUTH_PATH('c20'), { displayName: 'changed by hand' });
      await cloudRequest(cloud, 'PATCH', AUTH_PATH('c21'), { displayName: 'changed by hand' });
      await waitFor(
        async () => (await displayName(cloud, 'c21')) === 'Twenty-one',
        30_000,
        () => `c21 not repaired: ${watch.stderr()}`,
      );
      await waitFor(
        async () => watch.stderr().includes('refused by policy c20-changed-by-people'),
        30_000,
        () => `no refusal logged: ${watch.stderr()}`,
      );
      expect(await displayName(cloud, 'c20')).toBe('changed by hand');
      expect(watch.stderr()).not.toMatch(/unknown kind|^\s+at /m);
    } finally {
      expect((await watch.terminate()).code).toBe(0);
    }
  }, 120_000);

  it('with a file state runs alone: a second watch on the same state is refused, naming the first, and may start once it stopped', async () => {
    const dir = workdir({ 'm/c17.yaml': authManifest('c17', { displayName: 'Seventeen' }) });
    const first = await startWatch(dir, cloud, ['m', '--interval', '5s']);
    let stopped = false;
    try {
      expect(first.stderr()).toContain('this watch runs alone (a second watch on this state is refused)');
      const second = await moor(dir, cloud, ['watch', 'm', '--interval', '5s']);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(
        /another moor watch already watches the state \.moor\/state\.json \(\S+ \(pid \d+, moor watch\) since [^)]+\): with a file state one watch runs at a time/,
      );
      expect(second.stderr).not.toMatch(/^\s+at /m);
      const { code } = await first.terminate();
      stopped = true;
      expect(code).toBe(0);
    } finally {
      if (!stopped) await first.terminate();
    }
    const again = await startWatch(dir, cloud, ['m', '--interval', '5s']);
    expect((await again.terminate()).code).toBe(0);
  }, 120_000);

  it('--self-heal makes a destructive change only when --allow-destructive names it, as apply does: a protected job runs when named, another is held', async () => {
    const uat = 'DatabaseRefresh/uat-from-prod';
    const dir = workdir({
      'm/uat.yaml': refreshManifest('uat-from-prod', { revision: 'r1' }).replace('  name: uat-from-prod', '  name: uat-from-prod\n  protect: true'),
      'm/test.yaml': refreshManifest('test-from-prod', { target: ENV.test, revision: 'r1' }),
      'm/c18.yaml': authManifest('c18', { displayName: 'Eighteen' }),
    });
    const without = await moor(dir, cloud, ['watch', 'm', '--allow-destructive', uat]);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('--allow-destructive changes what --self-heal applies: give --self-heal too');
    const watch = await startWatch(dir, cloud, ['m', '--interval', CYCLE, '--self-heal', '--allow-destructive', uat]);
    try {
      await waitFor(
        async () => (await operationsOf(cloud, ENV.uat)).some((o) => o.status === 'Completed'),
        60_000,
        () => `named refresh did not run: ${watch.stderr()}`,
      );
      await waitFor(
        async () => (await displayName(cloud, 'c18')) === 'Eighteen',
        30_000,
        () => `the rest was not applied: ${watch.stderr()}`,
      );
      const resources = await waitFor(
        async () => {
          const stack = (await watch.status()).stacks[0];
          return stack.resources.some((r) => r.address === uat && r.status === 'in_sync') ? stack.resources : undefined;
        },
        30_000,
        () => `refresh never in sync: ${watch.stderr()}`,
      );
      expect(resources).toContainEqual(expect.objectContaining({ address: 'DatabaseRefresh/test-from-prod', status: 'held' }));
      expect(await operationsOf(cloud, ENV.test)).toEqual([]);
      expect((await operationsOf(cloud, ENV.uat)).map((o) => o.kind)).toEqual(['refresh']);
    } finally {
      expect((await watch.terminate()).code).toBe(0);
    }
  }, 120_000);

  it('notifies the conversation once when drift is found and once when it is resolved (the message edited), never every cycle', async () => {
    const conversation = '19:ops-alerts';
    const dir = workdir({
      'm/c19.yaml': authManifest('c19', { displayName: 'Nineteen' }),
      'moor.config.yaml': `notify:\n  serviceUrl: ${cloud.url}\n  conversationId: "${conversation}"\n  bot: {id: "28:moor-bot", name: moor}\n  tokenEnv: MOOR_TOKEN\n`,
    });
    expect((await moor(dir, cloud, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    const posted = async () =>
      (await cloudRequest(cloud, 'GET', `/v3/conversations/${encodeURIComponent(conversation)}/activities`)).body.activities as {
        id: string;
        text: string;
        history?: unknown[];
      }[];
    const watch = await startWatch(dir, cloud, ['m', '--interval', CYCLE]);
    try {
      await waitFor(
        async () => (await watch.get('/readyz')).status === 200,
        30_000,
        () => `never ready: ${watch.stderr()}`,
      );
      const cycles = async (result: string) => (await watch.sample('moor_reconcile_runs_total', { stack: 'default', result })) ?? 0;
      // In sync from the start: nothing to tell.
      await waitFor(
        async () => (await cycles('in_sync')) >= 2,
        30_000,
        () => `cycles stopped: ${watch.stderr()}`,
      );
      expect(await posted()).toEqual([]);

      await cloudRequest(cloud, 'PATCH', AUTH_PATH('c19'), { displayName: 'changed by hand' });
      const [found] = await waitFor(
        async () => {
          const p = await posted();
          return p.length > 0 ? p : undefined;
        },
        30_000,
        () => `drift not notified: ${watch.stderr()}`,
      );
      expect(found.text).toContain('AuthContext/c19');
      const drifted = await cycles('drifted');
      await waitFor(
        async () => (await cycles('drifted')) >= drifted + 3,
        30_000,
        () => `cycles stopped: ${watch.stderr()}`,
      );
      expect(await posted()).toEqual([expect.objectContaining({ id: found.id, text: found.text })]);

      await cloudRequest(cloud, 'PATCH', AUTH_PATH('c19'), { displayName: 'Nineteen' });
      await waitFor(
        async () => (await posted())[0]?.history?.length === 1,
        30_000,
        () => `resolution not notified: ${watch.stderr()}`,
      );
      const inSync = await cycles('in_sync');
      await waitFor(
        async () => (await cycles('in_sync')) >= inSync + 3,
        30_000,
        () => `cycles stopped: ${watch.stderr()}`,
      );
      const [resolved, ...more] = await posted();
      expect(more).toEqual([]);
      expect(resolved.id).toBe(found.id);
      expect(resolved.history).toHaveLength(1);
      expect(resolved.text).not.toContain('changed by hand');
      expect(resolved.text).toContain('No drift');
      expect(watch.stderr()).not.toContain('could not notify');
    } finally {
      expect((await watch.terminate()).code).toBe(0);
    }
  }, 120_000);

  it('refuses to listen beyond loopback without a token, and with one requires it on every request', async () => {
    const dir = workdir({ 'm/c14.yaml': authManifest('c14', { displayName: 'Fourteen' }) });
    const open = await moor(dir, cloud, ['watch', 'm', '--listen', '0.0.0.0:0']);
    expect(open.code).toBe(1);
    expect(open.stderr).toContain('--listen 0.0.0.0:0 serves beyond this machine: give --listen-token TOKEN');
    const watch = await startWatch(dir, cloud, ['m', '--interval', '5s', '--listen-token', 'watch-token-123']);
    try {
      expect((await watch.get('/metrics')).status).toBe(401);
      expect((await watch.get('/metrics', 'watch-token-123')).status).toBe(200);
      expect(watch.stderr()).toContain('(bearer token required)');
      expect(watch.stderr()).not.toContain('watch-token-123');
    } finally {
      expect((await watch.terminate()).code).toBe(0);
    }
  }, 120_000);
});

describe('moor watch --all-stacks', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  it('a failing stack backs off while another keeps converging', async () => {
    const dir = workdir({
      'good/c15.yaml': authManifest('c15', { displayName: 'Fifteen' }),
      // A variable the stack does not set: every plan of this stack fails.
      'bad/c16.yaml': authManifest('c16', { displayName: '${var:missing}' }),
      'moor.config.yaml': 'stacks:\n  good: {paths: [good]}\n  bad: {paths: [bad]}\n',
    });
    const watch = await startWatch(dir, cloud, ['--all-stacks', '--interval', CYCLE, '--self-heal']);
    try {
      await waitFor(
        async () => (await displayName(cloud, 'c15')) === 'Fifteen',
        30_000,
        () => `good stack not applied: ${watch.stderr()}`,
      );
      writeFile(dir, 'good/c15.yaml', authManifest('c15', { displayName: 'Fifteen, edited' }));
      await waitFor(
        async () => (await displayName(cloud, 'c15')) === 'Fifteen, edited',
        30_000,
        () => `good stack stopped converging: ${watch.stderr()}`,
      );
      const status = await waitFor(
        async () => {
          const now = await watch.status();
          return now.stacks.find((s) => s.stack === 'good')!.runs >= 8 ? now : undefined;
        },
        60_000,
        () => `good stack stopped cycling: ${watch.stderr()}`,
      );
      const bad = status.stacks.find((s) => s.stack === 'bad')!;
      const good = status.stacks.find((s) => s.stack === 'good')!;
      expect(bad.result).toBe('failed');
      expect(bad.consecutiveFailures).toBeGreaterThanOrEqual(1);
      // Backing off: the failing stack ran fewer cycles than the healthy one, whose interval never grew.
      expect(bad.runs).toBeLessThan(good.runs);
      expect(good.consecutiveFailures).toBe(0);
      expect(await watch.sample('moor_reconcile_runs_total', { stack: 'bad', result: 'failed' })).toBe(bad.runs);
      // The failure is told once, not every cycle.
      expect(watch.stderr().match(/stack bad: reconcile failed/g)).toHaveLength(1);
    } finally {
      expect((await watch.terminate()).code).toBe(0);
    }
    expect(await displayName(cloud, 'c16')).toBeUndefined();
  }, 180_000);
});
