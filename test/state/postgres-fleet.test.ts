// moor watch replicas on PostgreSQL: a replica's membership (its row, heartbeat and the lock of its id) and
// every lease it takes live on one session; the others see it live, see which leases it holds, and see it
// gone at once when it leaves or its session ends (its leases with it).
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeWithPostgres, workspaceUrl, backendsClosedAfterEach, PG_URL } from './postgres-env.js';

const backend = backendsClosedAfterEach();
const card = (id: string) => ({ id, host: 'test-host', pid: process.pid });

async function admin<T>(run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

describeWithPostgres('PostgreSQL fleet of watch replicas', () => {
  it('replicas see each other live and which leases each holds; one that leaves is gone at once', async () => {
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const url = workspaceUrl('fleet-one');
    const stack = new URL(url).searchParams.get('workspace')!;
    const ofA = backend(url);
    const ofB = backend(url);
    const seatA = await ofA.joinFleet(card(a), 5_000);
    const seatB = await ofB.joinFleet(card(b), 5_000);
    expect(seatA.name).toBe(stack);
    // Backends of one store share the membership of one replica.
    expect((await backend(workspaceUrl('fleet-other')).joinFleet(card(a), 5_000)).membership).toBe(seatA.membership);

    const lease = await ofA.takeLease('moor watch', 5_000, seatA.membership);
    expect(lease?.epoch).toBe(1);
    expect(await ofB.takeLease('moor watch', 5_000, seatB.membership)).toBeUndefined();
    const look = await seatB.membership.survey([stack]);
    expect(look.replicas.filter((r) => [a, b].includes(r.id)).map((r) => [r.id, r.live])).toEqual([
      [a, true],
      [b, true],
    ]);
    expect(look.holders.get(stack)).toBe(a);

    await lease!.release();
    expect((await seatB.membership.survey([stack])).holders.has(stack)).toBe(false);
    const taken = await ofB.takeLease('moor watch', 5_000, seatB.membership);
    expect(taken?.epoch).toBe(2);
    await taken!.release();
    await seatA.membership.leave();
    expect((await seatB.membership.survey([stack])).replicas.some((r) => r.id === a)).toBe(false);
    await seatB.membership.leave();
  });

  it('a replica whose session ends loses its membership and every lease at once; the others see it gone and take over', async () => {
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const url = workspaceUrl('fleet-ended');
    const stack = new URL(url).searchParams.get('workspace')!;
    const ofA = backend(url);
    const ofB = backend(url);
    const seatA = await ofA.joinFleet(card(a), 5_000);
    const seatB = await ofB.joinFleet(card(b), 5_000);
    const lease = await ofA.takeLease('moor watch', 5_000, seatA.membership);
    await ofA.lock('moor watch');
    await admin((c) => c.query(`SELECT pg_terminate_backend(backend_pid) FROM moor_watch_replica WHERE id = $1`, [a]));

    await expect.poll(() => seatA.membership.lost !== undefined, { timeout: 5_000 }).toBe(true);
    expect(await lease!.held()).toBe(false);
    await expect(ofA.assertLockHeld()).rejects.toThrow(/lost the state lock/);
    const look = await seatB.membership.survey([stack]);
    expect(look.replicas.find((r) => r.id === a)?.live).toBe(false);
    expect(look.holders.has(stack)).toBe(false);
    expect(await ofB.takeLease('moor watch', 5_000, seatB.membership)).toBeDefined();
    // Joining again gives a new membership.
    const again = await ofA.joinFleet(card(a), 5_000);
    expect(again.membership).not.toBe(seatA.membership);
    expect((await seatB.membership.survey([stack])).replicas.find((r) => r.id === a)?.live).toBe(true);
    await again.membership.leave();
    await seatB.membership.leave();
  });
});
