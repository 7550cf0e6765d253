import { afterEach, expect, test, vi } from 'vitest';
import type { FleetMembership, FleetReplica, StateBackend, StateLease } from '../engine/state/types.js';
import { ReplicaFleet } from './replica-fleet.js';
import type { StackTarget } from './stack-loop.js';

const STARTED = '2026-01-01T00:00:00.000Z';

function replica(id: string): FleetReplica {
  return { id, host: 'h', pid: 1, listen: null, startedAt: STARTED, heartbeatAt: STARTED, live: true };
}

/** One store's fleet kept in memory: who holds which workspace's lease, and the replicas a look finds. */
function memoryStore(replicas: FleetReplica[], holders: Map<string, string>, me: string) {
  const membership: FleetMembership = {
    store: 'memory',
    replica: { id: me, host: 'h', pid: 1 },
    lost: undefined,
    leaseMs: 1_000, // a look every 250 ms (the fleet's least tick)
    survey: (names) => Promise.resolve({ replicas, holders: new Map([...holders].filter(([name]) => names.includes(name))) }),
    leave: () => Promise.resolve(),
  };
  const stack = (name: string): StackTarget => {
    const backend: Partial<StateBackend> = {
      joinFleet: () => Promise.resolve({ membership, name }),
      takeLease: (): Promise<StateLease | undefined> => {
        if (holders.has(name)) return Promise.resolve(undefined);
        holders.set(name, me);
        const lease: StateLease = {
          held: () => Promise.resolve(holders.get(name) === me),
          release: () => {
            holders.delete(name);
            return Promise.resolve();
          },
        };
        return Promise.resolve(lease);
      },
    };
    // The fleet reads only the stack's name and its session's backend (a fleet's two methods).
    return { name, session: { backend }, options: {} } as unknown as StackTarget;
  };
  return { stack };
}

const fleets: ReplicaFleet[] = [];
afterEach(async () => {
  for (const f of fleets.splice(0)) await f.stop();
});

function fleetOf(me: string): ReplicaFleet {
  const fleet = new ReplicaFleet({
    replica: { id: me, host: 'h', pid: 1 },
    intervalMs: 60_000,
    ttlMs: 60_000,
    log: () => undefined,
    busy: () => false,
    wake: () => undefined,
  });
  fleets.push(fleet);
  return fleet;
}

test("the fleet's status gives this replica's own stacks as it holds them now, the same as holds(), even those taken after its last look", async () => {
  const holders = new Map([['c', 'other']]);
  const store = memoryStore([replica('me'), replica('other')], holders, 'me');
  const stacks = ['a', 'b', 'c', 'd'].map((name) => store.stack(name));
  const fleet = fleetOf('me');

  // The first look found a-d free but c (the other's): this replica took its share in the same tick, after the look.
  await fleet.start(stacks);
  const mine = stacks.filter((s) => fleet.holds(s)).map((s) => s.name);
  expect(mine.length).toBeGreaterThan(0);

  const status = fleet.status()!;
  const byId = new Map(status.replicas.map((r) => [r.id, r]));
  expect(byId.get('me')).toMatchObject({ self: true, holds: mine });
  // The others' as the look found them.
  expect(byId.get('other')).toMatchObject({ self: false, holds: ['c'] });
});

test("a stack handed over since the fleet's last look is no longer counted as this replica's", async () => {
  const holders = new Map<string, string>();
  const replicas = [replica('me')];
  const store = memoryStore(replicas, holders, 'me');
  const stacks = ['a', 'b', 'c', 'd'].map((name) => store.stack(name));
  const fleet = fleetOf('me');
  await fleet.start(stacks);
  expect(stacks.every((s) => fleet.holds(s))).toBe(true);

  // Another replica joins: at the next look this one hands half of the stacks over (the look saw them all its own).
  replicas.push(replica('other'));
  await vi.waitFor(() => expect(stacks.filter((s) => fleet.holds(s))).toHaveLength(2), { timeout: 30_000, interval: 50 });

  const mine = stacks.filter((s) => fleet.holds(s)).map((s) => s.name);
  const status = fleet.status()!;
  expect(status.replicas.find((r) => r.self)?.holds).toEqual(mine);
});
