// Stacks on one PostgreSQL database: each stack keeps its state and its lock in a workspace of its
// name, so two stacks applied at the same moment both succeed, and a lock held on one stack never
// blocks another (while the held stack's own run is refused).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { backendsClosedAfterEach, describeWithPostgres, PG_URL } from '../state/postgres-env.js';
import { groupManifest, moor, startCloud, workdir, type Cloud } from './harness.js';

const LONG = 240_000;

describeWithPostgres('stacks on one PostgreSQL database', () => {
  const open = backendsClosedAfterEach();
  // Stack names are workspace names: unique per run, so files and runs at once never meet.
  const tag = randomUUID().slice(0, 8);
  const dev = `dev-${tag}`;
  const prod = `prod-${tag}`;
  let cloud: Cloud;
  let dir: string;
  beforeAll(async () => {
    // Every request waits a little, so the two applies are in flight together.
    cloud = await startCloud({ latencyMs: 150 });
    dir = workdir({
      'moor.config.yaml': `stacks:\n  ${dev}:\n    paths: [m]\n    vars: {rg: rg-${dev}}\n  ${prod}:\n    paths: [m]\n    vars: {rg: rg-${prod}}\n`,
      'm/groups.yaml': ['api', 'web', 'worker'].map((name) => groupManifest(name, { resourceGroup: '${var:rg}' })).join('---\n'),
      'm/secret.txt': 'not-a-real-secret\n',
    });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });
  const run = (...args: string[]) => moor(dir, cloud, args, { MOOR_STATE: PG_URL! });

  it(
    'two stacks applied at the same moment both succeed, each in its own workspace, and each re-plans empty',
    async () => {
      const [a, b] = await Promise.all([run('apply', '--stack', dev, '--auto-approve'), run('apply', '--stack', prod, '--auto-approve')]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      expect(a.stdout).toContain(`stack ${dev}: Apply complete: 3 created`);
      expect(b.stdout).toContain(`stack ${prod}: Apply complete: 3 created`);
      for (const stack of [dev, prod]) {
        const again = await run('plan', '--stack', stack, '--detailed-exitcode');
        expect(again.code, again.stdout + again.stderr).toBe(0);
        const listed = await run('state', 'list', '--stack', stack);
        expect(listed.stdout).toContain('ContainerGroup/worker');
      }
    },
    LONG,
  );

  it(
    "a lock held on one stack never blocks another; the held stack's run is refused at once",
    async () => {
      const url = new URL(PG_URL!);
      url.searchParams.set('workspace', dev);
      const held = open(url.href);
      const lock = await held.lock('test holds dev');
      try {
        const other = await run('apply', '--stack', prod, '--auto-approve');
        expect(other.code, other.stderr).toBe(0);
        const blocked = await run('apply', '--stack', dev, '--auto-approve');
        expect(blocked.code).toBe(1);
        expect(blocked.stderr).toContain('state is locked by');
      } finally {
        await held.unlock(lock);
      }
      expect((await run('apply', '--stack', dev, '--auto-approve')).code).toBe(0);
    },
    LONG,
  );

  it(
    "with the database given (MOOR_STATE), stack b's plan sees the live resource stack a's workspace records and is refused, naming a",
    async () => {
      const a = `own-a-${tag}`;
      const b = `own-b-${tag}`;
      const shared = workdir({
        'moor.config.yaml': `stacks:\n  ${a}: {paths: [m], vars: {rg: rg-own-${tag}, team: alpha}}\n  ${b}: {paths: [m], vars: {rg: rg-own-${tag}, team: beta}}\n`,
        'm/web.yaml': groupManifest('web', { resourceGroup: '${var:rg}', tags: { team: '${var:team}' } }),
        'm/secret.txt': 'not-a-real-secret\n',
      });
      const first = await moor(shared, cloud, ['apply', '--stack', a, '--auto-approve'], { MOOR_STATE: PG_URL! });
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const plan = await moor(shared, cloud, ['plan', '--stack', b], { MOOR_STATE: PG_URL! });
      expect(plan.code, plan.stdout + plan.stderr).toBe(1);
      expect(plan.stdout + plan.stderr).toContain(
        `ContainerGroup/web: the live resource belongs to stack ${a} (its state records it as ContainerGroup/web), not ${b}`,
      );
      expect((await moor(shared, cloud, ['plan', '--stack', a, '--detailed-exitcode'], { MOOR_STATE: PG_URL! })).code).toBe(0);
    },
    LONG,
  );
});
