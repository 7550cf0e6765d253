// Reading by listing and planning use one resolution of each manifest: its placeholders (env, files) are read once.
import { describe, expect, it } from 'vitest';
import { makePlan } from './planner.js';
import { EMPTY_STATE, FakeCloud, fakeCatalog, manifest } from '../testing/fake-kinds.js';
import type { KindContext, ListAnswer, ReadTarget } from '../../core/kind.js';

async function envReadsWhilePlanning(listable: boolean): Promise<number> {
  let reads = 0;
  const env = new Proxy(
    { REGION: 'west' },
    {
      get: (target, key) => {
        if (key === 'REGION') reads++;
        return Reflect.get(target, key);
      },
    },
  );
  const list = { complete: false, readAll: async (_ctx: KindContext, targets: readonly unknown[]) => targets.map(() => 'read' as const) };
  const kinds = fakeCatalog(new FakeCloud(), listable ? { list } : {});
  await makePlan({
    manifests: [manifest('Thing', 'a', { region: '${env:REGION}' })],
    kinds,
    state: EMPTY_STATE,
    ctx: { providers: {} as KindContext['providers'], log: () => undefined },
    resolve: { env },
    parallelism: 1,
  });
  return reads;
}

describe('prefetchReads', () => {
  it('resolves a listable manifest no more often than one read one by one', async () => {
    const once = await envReadsWhilePlanning(false);
    expect(once).toBeGreaterThan(0);
    expect(await envReadsWhilePlanning(true)).toBe(once);
  });
});

describe('planning while listings are still out', () => {
  it('compares a manifest as soon as its own listing is back, before the other listings answer', async () => {
    const cloud = new FakeCloud();
    cloud.live.set('Thing/a', { region: 'west' });
    cloud.live.set('Thing/b', { region: 'west' });
    let aPlanned!: () => void;
    const planned = new Promise<void>((resolve) => {
      aPlanned = resolve;
    });
    const list = {
      complete: true,
      // a's listing answers at once; b's only once a has been planned: a plan that waited for every listing would never end.
      async readAll(_ctx: KindContext, targets: readonly ReadTarget[], answered?: (i: number, a: ListAnswer) => void) {
        const observed = (t: ReadTarget) => ({ id: `Thing/${t.name}`, spec: cloud.live.get(`Thing/${t.name}`)!, outputs: {} });
        answered?.(0, observed(targets[0]));
        const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 2_000).unref());
        if ((await Promise.race([planned.then(() => 'planned' as const), timeout])) === 'timeout')
          throw new Error('a was not planned before the last listing answered');
        return targets.map(observed);
      },
    };
    const order: string[] = [];
    const result = await makePlan({
      manifests: [manifest('Thing', 'a', { region: 'west' }), manifest('Thing', 'b', { region: 'west' })],
      kinds: fakeCatalog(cloud, {
        list,
        read: async () => {
          throw new Error('read one by one although listed');
        },
      }),
      state: EMPTY_STATE,
      ctx: { providers: {} as KindContext['providers'], log: () => undefined },
      resolve: { env: {} },
      parallelism: 2,
      events: (e) => {
        if (e.type === 'planned') {
          order.push(e.address);
          if (e.address === 'Thing/a') aPlanned();
        }
      },
    });
    expect(order).toEqual(['Thing/a', 'Thing/b']);
    expect(result.plan.changes.map((c) => c.action)).toEqual(['no-op', 'no-op']);
  });
});
