// moor watch replicas on one PostgreSQL state (in the postgres project: a server is started), over HTTP
// against the local cloud: replicas share the stacks fairly through leases (4±1 of 12 each over three,
// within two intervals of a join, a kill -9 or a restart, moving only what they must); kill -9 of a replica
// in the middle of its applies hands its stacks to the others within two intervals, and every stack
// converges with nothing created twice, no job run twice and no write without the stack's lease (the local
// cloud's request log); SIGTERM of a replica exits 0 within 10 s and leaves no lease and no lock behind,
// even in the middle of an apply.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, expect, test } from 'vitest';
import { describeWithPostgres, PG_URL } from '../state/postgres-env.js';
import { testClock, type TestClock } from '../support/test-clock.js';
import {
  ARM_PATH,
  cloudRequest,
  datasetIdsNamed,
  datasetManifest,
  groupManifest,
  operationsOf,
  startCloud,
  SUB,
  workdir,
  writeFile,
  type Cloud,
} from './harness.js';
import { startCloudProcess } from './processes.js';
import { startWatch, waitFor, type WatchProcess, type WatchRun, type WatchStatus } from './watch-harness.js';
import { startWatchProcess } from './watch-process.js';

const INTERVAL_MS = 2_000;
/** The shortest interval whose lease time (half an interval, at least 5 s) the fleet's looks (a quarter of the interval) keep well inside. */
const FLEET_INTERVAL_MS = 2_000;
const FLEET_STACKS = 12;
const STACKS = 6;
const HOUR_MS = 3_600_000;
/**
 * A cloud whose groups provision, and whose export jobs run each phase, for an hour of its test clock: what a
 * replica sent stays in flight however long the replicas take on a loaded machine, until the test moves the clock.
 */
const IN_FLIGHT_UNTIL_MOVED: NodeJS.ProcessEnv = { MOOR_PROVISIONING_MS: String(HOUR_MS), MOOR_LOCAL_CLOUD_ASYNC_MS: String(HOUR_MS) };

/** A probe that first ends what the cloud has in flight (the clock moves on a phase): each poll finishes what was sent since. */
const movingClock =
  <T>(clock: TestClock, probe: () => Promise<T>) =>
  (): Promise<T> => {
    clock.advance(HOUR_MS);
    return probe();
  };
const PROJECT_ID = '7654321';
/** One sandbox environment per stack, so the stacks' export jobs never wait on each other. */
const environmentOf = (i: number) => `5e0c1d2a-0000-4000-8000-0000000000${String(10 + i)}`;

const FIXTURES = `quotas:
  - {subscriptionId: ${SUB}, location: westeurope, containerGroups: 20, standardCores: 40}
databaseMovement:
  projects:
    - id: "${PROJECT_ID}"
      environments:
${Array.from({ length: STACKS }, (_, i) => `        - {id: ${environmentOf(i)}, type: Sandbox, name: env-${i}}`).join('\n')}
`;

function exportManifest(i: number): string {
  return `apiVersion: moor/v1
kind: DatabaseExport
metadata:
  name: backup
spec:
  projectId: "${PROJECT_ID}"
  environmentId: ${environmentOf(i)}
  backupName: golden-${i}
  revision: "1"
`;
}

/** One connection of the test's own for its looks at the server (a connection per look costs a login each time). */
let adminPool: pg.Pool | undefined;
const admin = (): pg.Pool => (adminPool ??= new pg.Pool({ connectionString: PG_URL, max: 1 }));
afterAll(async () => {
  await adminPool?.end();
});

/** Sessions of the server holding a lease for the process `pid` (lease connections name their process). */
async function leaseSessionsOf(pid: number): Promise<number> {
  const r = await admin().query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_catalog.pg_stat_activity a JOIN pg_catalog.pg_locks l ON l.pid = a.pid
      WHERE a.application_name = $1 AND l.locktype = 'advisory' AND l.granted`,
    [`moor watch lease (pid ${pid})`],
  );
  return Number(r.rows[0].n);
}

/** Rows of the state lock table naming the process `pid` (a released lock leaves none). */
async function stateLocksOf(pid: number): Promise<number> {
  const r = await admin().query<{ n: string }>('SELECT count(*) AS n FROM moor_lock WHERE pid = $1', [pid]);
  return Number(r.rows[0].n);
}

/**
 * A replica that runs in this process (main(argv, io) of the built CLI): where neither the process nor its signals are
 * the point (kill -9, SIGSTOP, an exit after SIGTERM), a process start is not paid for. Its pid is this process's.
 */
type Replica = WatchRun & { readonly pid: number };
async function startReplicaHere(dir: string, cloud: Cloud, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Replica> {
  return { ...(await startWatch(dir, cloud, args, env)), pid: process.pid };
}

/**
 * Writes the local cloud's request log shows without the stack's lease: every request but a GET must name
 * its replica, stack and lease (User-Agent), and per stack the leases must follow each other (a write of
 * an older lease after one of a newer is a replica writing after it lost the stack), each lease one replica's.
 */
function writesWithoutTheLease(log: string, stacks: readonly string[]): string[] {
  const lines = log
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { seq: number; method: string; path: string; userAgent: string | null })
    .sort((a, b) => a.seq - b.seq);
  const problems: string[] = [];
  const newest = new Map<string, { lease: number; replica: string }>();
  let writes = 0;
  for (const line of lines) {
    if (line.method === 'GET') continue;
    writes++;
    const m = /\(watch; replica (\S+); stack (\S+); lease (\d+)\)/.exec(line.userAgent ?? '');
    if (!m || !stacks.includes(m[2])) {
      problems.push(`${line.method} ${line.path} without a lease: ${line.userAgent}`);
      continue;
    }
    const [, replica, stack, lease] = m;
    const seen = newest.get(stack);
    if (seen && (Number(lease) < seen.lease || (Number(lease) === seen.lease && replica !== seen.replica))) {
      problems.push(`${line.method} ${line.path} by ${replica} under lease ${lease} of ${stack}, after lease ${seen.lease} of ${seen.replica}`);
    }
    if (!seen || Number(lease) > seen.lease) newest.set(stack, { lease: Number(lease), replica });
  }
  if (writes < stacks.length) problems.push(`only ${writes} writes logged`);
  return problems;
}

const provisioningState = async (cloud: Cloud, name: string) =>
  (await cloudRequest(cloud, 'GET', ARM_PATH(name))).body?.properties?.provisioningState as string | undefined;

describeWithPostgres('moor watch replicas on one PostgreSQL state', () => {
  let cloud: Cloud | undefined;
  const watches: (WatchProcess | Replica)[] = [];
  afterEach(async () => {
    // A run in this process is stopped as SIGTERM stops it (again, if the test did already).
    await Promise.all(watches.splice(0).map((w) => ('kill' in w ? w.kill() : w.terminate())));
    await cloud?.stop();
    cloud = undefined;
  });

  test('kill -9 of a replica mid-apply: its stacks are taken over within two intervals and converge once; SIGTERM mid-apply exits 0 within 10 s and releases every lease and lock', async () => {
    const run = randomBytes(3).toString('hex');
    const stacks = Array.from({ length: STACKS }, (_, i) => `r${run}-${i}`);
    const files: Record<string, string> = {
      'fixtures.yaml': FIXTURES,
      'moor.config.yaml': `stacks:\n${stacks.map((s, i) => `  ${s}: {paths: [s${i}]}`).join('\n')}\n`,
    };
    stacks.forEach((_, i) => {
      files[`s${i}/secret.txt`] = 's3cret-value\n';
      files[`s${i}/dataset.yaml`] = datasetManifest('sales', { datasetName: `ds-${run}-${i}` });
    });
    const dir = workdir(files);
    // The replicas' applies (groups provisioning, exports running) stay in flight until the test moves the cloud's clock:
    // the first replica is killed in the middle of its own, and the leaving one is stopped in the middle of its edit's.
    const clock = testClock();
    const c = (cloud = await startCloud({ args: ['--fixtures', join(dir, 'fixtures.yaml')], env: IN_FLIGHT_UNTIL_MOVED, clock }));
    const env = { MOOR_STATE: PG_URL! };
    const args = (id: string) => ['--all-stacks', '--interval', `${INTERVAL_MS / 1000}s`, '--self-heal', '--replica-id', id];

    const first = await startWatchProcess(dir, c, args(`first-${run}`), env);
    watches.push(first);
    await waitFor(
      async () => (await first.status()).holds.length === STACKS,
      60_000,
      () => `first replica did not take every stack: ${first.stderr()}`,
    );
    // The one that leaves on SIGTERM is a process (its exit is the point); the one that stays runs in this process.
    const others: [WatchProcess, Replica] = await Promise.all([
      startWatchProcess(dir, c, args(`second-${run}`), env),
      startReplicaHere(dir, c, args(`third-${run}`), env),
    ]);
    watches.push(...others);
    const all = [first, ...others];
    // Replicas that join take their share from the first: two stacks each.
    await waitFor(
      async () => (await Promise.all(all.map((w) => w.status()))).every((s) => s.holds.length === STACKS / 3),
      60_000,
      () => `not shared: ${all.map((w) => w.stderr()).join('\n---\n')}`,
    );
    for (const w of others)
      await waitFor(
        async () => (await w.get('/readyz')).status === 200,
        60_000,
        () => `replica not ready: ${w.stderr()}`,
      );
    const firstHolds = (await first.status()).holds;
    expect((await first.status()).stacks.filter((s) => s.standby).length).toBe(STACKS - STACKS / 3);
    expect(await first.sample('moor_stack_lease', { stack: firstHolds[0]! })).toBe(1);
    expect(await first.sample('moor_stack_handovers_total', { direction: 'out' })).toBe(STACKS - STACKS / 3);

    // The slow part comes once every replica holds its share: each applies the edit, and the first is killed in the
    // middle of it, every group sent and its own still provisioning.
    stacks.forEach((_, i) => {
      writeFile(dir, `s${i}/group.yaml`, groupManifest(`g-${run}-${i}`));
      writeFile(dir, `s${i}/export.yaml`, exportManifest(i));
    });
    const killedStacks = firstHolds.map((s) => stacks.indexOf(s!));
    await waitFor(
      async () => (await Promise.all(stacks.map((_, i) => provisioningState(c, `g-${run}-${i}`)))).every((p) => p !== undefined),
      60_000,
      () => `groups not sent: ${first.stderr()}`,
    );
    const inFlight = await Promise.all(killedStacks.map((i) => provisioningState(c, `g-${run}-${i}`)));
    expect(inFlight.filter((p) => p !== 'Succeeded').length, `applies already done before the kill: ${first.stderr()}`).toBeGreaterThan(0);
    const killedAt = Date.now();
    await first.kill();

    const holders = async () => (await Promise.all(others.map((w) => w.status()))).flatMap((s) => s.holds);
    await waitFor(
      async () => new Set(await holders()).size === STACKS,
      60_000,
      () => `not taken over: ${others.map((w) => w.stderr()).join('\n---\n')}`,
    );
    const takeoverMs = Date.now() - killedAt;
    expect(takeoverMs, `takeover took ${takeoverMs} ms`).toBeLessThan(2 * INTERVAL_MS);
    // Each stack is reconciled by exactly one replica, three each.
    expect((await holders()).length).toBe(STACKS);
    for (const w of others) expect((await w.status()).holds).toHaveLength(STACKS / 2);

    const inSync = (statuses: WatchStatus[]) =>
      stacks.every((name) => statuses.some((s) => s.holds.includes(name) && s.stacks.find((t) => t.stack === name)?.result === 'in_sync'));
    // Now what every replica sent ends (and what the ones that took over send next, at the following polls).
    await waitFor(
      movingClock(clock, async () => inSync(await Promise.all(others.map((w) => w.status())))),
      240_000,
      () => `not converged: ${others.map((w) => w.stderr()).join('\n---\n')}`,
    );
    // A plan counts a group still provisioning after a create it made as in sync (nothing to send): wait for the service.
    await waitFor(
      async () => (await Promise.all(stacks.map((_, i) => provisioningState(c, `g-${run}-${i}`)))).every((p) => p === 'Succeeded'),
      120_000,
      () => 'groups never provisioned',
    );
    for (let i = 0; i < STACKS; i++) {
      expect(await datasetIdsNamed(c, `ds-${run}-${i}`)).toHaveLength(1);
      expect((await operationsOf(c, environmentOf(i))).map((o) => [o.kind, o.backupName, o.status])).toEqual([['export', `golden-${i}`, 'Completed']]);
    }

    // SIGTERM in the middle of an apply: an edit of a stack the leaving replica holds is being applied (the group updating).
    const [leaving, staying] = others;
    const edited = stacks.indexOf((await leaving.status()).holds[0]!);
    expect(edited).toBeGreaterThanOrEqual(0);
    writeFile(dir, `s${edited}/group.yaml`, groupManifest(`g-${run}-${edited}`, { tags: { release: 'two' } }));
    await waitFor(
      async () => (await provisioningState(c, `g-${run}-${edited}`)) === 'Updating',
      60_000,
      () => `edit not applied: ${leaving.stderr()}`,
    );
    const { code, ms } = await leaving.terminate();
    expect(code, leaving.stderr()).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(leaving.stderr()).toContain('moor watch: stopped');
    await waitFor(
      async () => (await leaseSessionsOf(leaving.pid)) === 0,
      5_000,
      () => `leases left by pid ${leaving.pid}`,
    );
    expect(await stateLocksOf(leaving.pid)).toBe(0);
    await waitFor(
      async () => (await staying.status()).holds.length === STACKS,
      60_000,
      () => `not taken over after SIGTERM: ${staying.stderr()}`,
    );
    // The replica that took over finishes the stack: the edit converges once the cloud's clock moves on.
    await waitFor(
      movingClock(clock, async () => {
        const group = (await cloudRequest(c, 'GET', ARM_PATH(`g-${run}-${edited}`))).body;
        return group?.properties?.provisioningState === 'Succeeded' && group?.tags?.release === 'two';
      }),
      120_000,
      () => `edit never converged: ${staying.stderr()}`,
    );
    await waitFor(
      async () => (await staying.status()).stacks.find((s) => s.stack === stacks[edited])?.result === 'in_sync',
      60_000,
      () => `edited stack not in sync: ${staying.stderr()}`,
    );
    expect((await staying.terminate()).code).toBe(0);
    expect(await leaseSessionsOf(staying.pid)).toBe(0);
  }, 300_000);

  test('SIGTERM of a replica whose service stopped answering in the middle of an apply: it exits 0 within 8 s, its read in flight cut short, and leaves no lease and no lock behind', async () => {
    const run = randomBytes(3).toString('hex');
    const stack = `h${run}`;
    const dir = workdir({
      'moor.config.yaml': `stacks:\n  ${stack}: {paths: [m]}\n`,
      'm/secret.txt': 's3cret-value\n',
      'm/group.yaml': groupManifest(`g-${run}`),
    });
    const c = (cloud = await startCloud({ env: { MOOR_PROVISIONING_MS: '60000' } }));
    // In front of the cloud, byte for byte: once it hangs, what a client sends is taken and never passed on (a service
    // that stopped answering, its connections open).
    let hanging = false;
    // A read in flight once the service hangs: a request sent after it (held), or one sent before whose answer it swallowed.
    let held = 0;
    let swallowed = 0;
    // Whether moor has the PUT's answer: hanging before it passes would leave the write itself in flight
    // (waited for, as a write must be) instead of a read.
    let putAnswered = false;
    const front = createNetServer((client) => {
      const upstream = connect(Number(new URL(c.url).port), '127.0.0.1');
      let awaitingPut = false;
      client.on('data', (d: Buffer) => {
        if (hanging) held++;
        else {
          if (d.subarray(0, 4).toString() === 'PUT ') awaitingPut = true;
          upstream.write(d);
        }
      });
      upstream.on('data', (d: Buffer) => {
        if (hanging) {
          swallowed++;
          return;
        }
        client.write(d);
        if (awaitingPut && d.subarray(0, 5).toString() === 'HTTP/') [awaitingPut, putAnswered] = [false, true];
      });
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    try {
      const w = await startWatchProcess(dir, { ...c, url: frontUrl }, ['--all-stacks', '--interval', `${INTERVAL_MS / 1000}s`, '--self-heal'], {
        MOOR_STATE: PG_URL!,
      });
      watches.push(w);
      // The group is sent and provisioning: the apply polls it. Then the service stops answering, with a poll in flight.
      await waitFor(
        async () => putAnswered && (await provisioningState(c, `g-${run}`)) !== undefined,
        60_000,
        () => `group not sent: ${w.stderr()}`,
      );
      hanging = true;
      await waitFor(
        async () => held > 0 || swallowed > 0,
        30_000,
        () => `no request in flight after the service hung: ${w.stderr()}`,
      );
      const { code, ms } = await w.terminate();
      expect(code, w.stderr()).toBe(0);
      expect(ms, w.stderr()).toBeLessThan(8_000);
      expect(w.stderr()).toContain('moor watch: stopped');
      expect(await leaseSessionsOf(w.pid)).toBe(0);
      expect(await stateLocksOf(w.pid)).toBe(0);
    } finally {
      front.close();
    }
  }, 120_000);

  test('a replica paused in the middle of an apply loses its lease; another takes the stack over, and the paused one, resumed, writes nothing and stands by', async () => {
    const run = randomBytes(3).toString('hex');
    const stack = `p${run}`;
    const dir = workdir({ 'moor.config.yaml': `stacks:\n  ${stack}: {paths: [m]}\n`, 'm/secret.txt': 's3cret-value\n' });
    // The group provisions until the test moves the cloud's clock: the paused replica's apply is in flight.
    const clock = testClock();
    const c = (cloud = await startCloud({ env: { MOOR_PROVISIONING_MS: String(HOUR_MS) }, clock }));
    const env = { MOOR_STATE: PG_URL! };
    const args = ['--all-stacks', '--interval', `${INTERVAL_MS / 1000}s`, '--self-heal'];
    const paused = await startWatchProcess(dir, c, args, env);
    watches.push(paused);
    await waitFor(
      async () => (await paused.status()).holds.length === 1,
      60_000,
      () => `no lease: ${paused.stderr()}`,
    );
    const other = await startReplicaHere(dir, c, args, env);
    watches.push(other);
    await waitFor(
      async () => (await other.get('/readyz')).status === 200,
      60_000,
      () => `standby not ready: ${other.stderr()}`,
    );

    writeFile(dir, 'm/group.yaml', groupManifest(`g-${run}`));
    await waitFor(
      async () => (await provisioningState(c, `g-${run}`)) !== undefined,
      60_000,
      () => `group not sent: ${paused.stderr()}`,
    );
    paused.signal('SIGSTOP');
    // Silent past the lease time (half an interval, at least 5 s): the server ends its session, and the standby takes over.
    await waitFor(
      async () => (await other.status()).holds.length === 1,
      60_000,
      () => `not taken over: ${other.stderr()}`,
    );
    await waitFor(
      movingClock(clock, async () => (await provisioningState(c, `g-${run}`)) === 'Succeeded'),
      120_000,
      () => `never provisioned: ${other.stderr()}`,
    );
    await waitFor(
      async () => (await other.status()).stacks[0].result === 'in_sync',
      60_000,
      () => `not in sync: ${other.stderr()}`,
    );

    paused.signal('SIGCONT');
    await waitFor(
      async () => /lost the lease|lost the state lock|lease was lost/.test(paused.stderr()),
      60_000,
      () => `resumed replica did not notice: ${paused.stderr()}`,
    );
    await waitFor(
      async () => (await paused.status()).stacks[0].standby,
      60_000,
      () => `resumed replica not standing by: ${paused.stderr()}`,
    );
    expect((await paused.status()).holds).toEqual([]);
    expect((await other.status()).holds).toEqual([stack]);
    expect((await paused.terminate()).code).toBe(0);
    expect((await other.terminate()).code).toBe(0);
  }, 300_000);
  test('12 stacks over three replicas: 4±1 each within two intervals of the last join, 6±1 after a kill -9, 4±1 again after its restart with at most 5 stacks moved; every dataset once, no write without the lease', async () => {
    const run = randomBytes(3).toString('hex');
    const stacks = Array.from({ length: FLEET_STACKS }, (_, i) => `f${run}-${i}`);
    const files: Record<string, string> = { 'moor.config.yaml': `stacks:\n${stacks.map((s, i) => `  ${s}: {paths: [s${i}]}`).join('\n')}\n` };
    stacks.forEach((_, i) => {
      files[`s${i}/dataset.yaml`] = datasetManifest('sales', { datasetName: `ds-${run}-${i}` });
    });
    const dir = workdir(files);
    const requestLog = join(dir, 'requests.jsonl');
    // Handovers wait for the cycles in flight and are timed in wall-clock: the cloud answers from a process of its own.
    const c = (cloud = await startCloudProcess({ args: ['--request-log', requestLog] }));
    const env = { MOOR_STATE: PG_URL! };
    const args = (id: string) => ['--all-stacks', '--interval', `${FLEET_INTERVAL_MS / 1000}s`, '--self-heal', '--replica-id', id];
    const ids = [`a-${run}`, `b-${run}`, `c-${run}`];
    const replicas = new Map<string, WatchRun>();
    // The replica killed with kill -9 is a process; the others run in this process.
    const start = async <W extends WatchProcess | Replica>(
      id: string,
      how: (dir: string, cloud: Cloud, args: readonly string[], env: NodeJS.ProcessEnv) => Promise<W>,
    ) => {
      const w = await how(dir, c, args(id), env);
      watches.push(w);
      replicas.set(id, w);
      return w;
    };
    /** Stack -> the replica holding it, as each replica says; a stack two replicas claim fails the test. */
    const holders = async () => {
      const out = new Map<string, string>();
      for (const [id, w] of replicas) {
        for (const s of (await w.status()).holds) {
          expect(out.has(s!), `stack ${s} held by ${out.get(s!)} and ${id}`).toBe(false);
          out.set(s!, id);
        }
      }
      return out;
    };
    const balanced = (lo: number, hi: number) => async () => {
      const h = await holders();
      if (h.size !== FLEET_STACKS) return false;
      const counts = [...replicas.keys()].map((id) => [...h.values()].filter((r) => r === id).length);
      return counts.every((n) => n >= lo && n <= hi) ? h : false;
    };
    const why = () => [...replicas].map(([id, w]) => `--- ${id}\n${w.stderr()}`).join('\n');

    const [, killed] = await Promise.all([start(ids[0], startReplicaHere), start(ids[1], startWatchProcess), start(ids[2], startReplicaHere)]);
    const joined = Date.now();
    await waitFor(balanced(3, 5), 60_000, () => `not shared 4±1 after the last join: ${why()}`);
    const shareMs = Date.now() - joined;
    expect(shareMs, `shared after ${shareMs} ms`).toBeLessThan(2 * FLEET_INTERVAL_MS);
    const inSync = async () => {
      const statuses = await Promise.all([...replicas.values()].map((w) => w.status()));
      return stacks.every((name) => statuses.some((s) => s.holds.includes(name) && s.stacks.find((t) => t.stack === name)?.result === 'in_sync'));
    };
    await waitFor(inSync, 60_000, () => `not in sync: ${why()}`);
    const fleet = (await replicas.get(ids[0])!.status()).fleet!;
    expect(
      fleet.replicas
        .filter((r) => r.live)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...ids].sort());
    expect(await replicas.get(ids[0])!.sample('moor_replicas', {})).toBe(3);

    // kill -9: its session ends with it, and the two others share its stacks.
    await killed.kill();
    replicas.delete(ids[1]);
    const killedAt = Date.now();
    await waitFor(balanced(5, 7), 60_000, () => `not shared 6±1 after kill -9: ${why()}`);
    const takeoverMs = Date.now() - killedAt;
    expect(takeoverMs, `taken over after ${takeoverMs} ms`).toBeLessThan(2 * FLEET_INTERVAL_MS);
    const beforeRestart = await holders();
    const handedOver = async () =>
      (await Promise.all([ids[0], ids[2]].map((id) => replicas.get(id)!.sample('moor_stack_handovers_total', { direction: 'out' })))).reduce(
        (a, b) => a! + b!,
        0,
      )!;
    const outBefore = await handedOver();

    // Back with its id: it takes its share again, and only that moves.
    await start(ids[1], startReplicaHere);
    const restarted = Date.now();
    const after = await waitFor(balanced(3, 5), 60_000, () => `not shared 4±1 after the restart: ${why()}`);
    const restartMs = Date.now() - restarted;
    expect(restartMs, `shared after ${restartMs} ms`).toBeLessThan(2 * FLEET_INTERVAL_MS);
    const moved = stacks.filter((s) => after.get(s) !== beforeRestart.get(s));
    expect(moved.length, `moved: ${moved.join(', ')}`).toBeLessThanOrEqual(5);
    expect((await handedOver()) - outBefore).toBeLessThanOrEqual(5);
    await waitFor(inSync, 60_000, () => `not in sync after the restart: ${why()}`);

    for (let i = 0; i < FLEET_STACKS; i++) expect(await datasetIdsNamed(c, `ds-${run}-${i}`)).toHaveLength(1);
    for (const w of replicas.values()) expect((await w.terminate()).code).toBe(0);
    replicas.clear();
    await c.stop();
    cloud = undefined;
    expect(writesWithoutTheLease(readFileSync(requestLog, 'utf8'), stacks)).toEqual([]);
  }, 240_000);
});
