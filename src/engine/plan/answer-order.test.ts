// Plan compares each manifest once its listing has answered, in the order listings answer: a
// listing still out does not hold back manifests whose answers are in (under a rate limit the
// last listings answer long after the first, and the plan must not compare the rest only then).
import { describe, expect, it } from 'vitest';
import type { KindContext, ListAnswer, ListRun, ReadTarget } from '../../core/kind.js';
import { FakeCloud, fakeCatalog, manifest, planWith } from '../testing/fake-kinds.js';

/** planWith plans under a limit of 4: one more held listing than that would hold every place. */
const HELD = 5;

describe('plan compares in the order listings answer', () => {
  it('compares a manifest whose listing is in while listings named before it are still out', async () => {
    const cloud = new FakeCloud();
    const names = [...Array.from({ length: HELD }, (_, i) => `held${i}`), 'quick'];
    for (const name of names) cloud.live.set(`Thing/${name}`, { region: 'west' });
    const planned: string[] = [];
    let release: () => void = () => undefined;
    // The held listings answer once quick is compared, or after 3 s (so the old order fails, not hangs).
    const released = new Promise<void>((resolve) => {
      release = resolve;
      setTimeout(resolve, 3000).unref();
    });
    const observed = (t: ReadTarget): ListAnswer => ({ id: `Thing/${t.name}`, spec: cloud.live.get(`Thing/${t.name}`)!, outputs: {} });
    const begin = (_ctx: KindContext, answered?: (i: number, a: ListAnswer) => void): ListRun => {
      const out: ListAnswer[] = [];
      const held: number[] = [];
      return {
        add(t) {
          const i = out.push(observed(t)) - 1;
          if (t.name.startsWith('held')) held.push(i);
          else answered?.(i, out[i]);
        },
        async finish() {
          await released;
          for (const i of held) answered?.(i, out[i]);
          return out;
        },
      };
    };
    const list = {
      complete: true,
      begin,
      readAll: async () => {
        throw new Error('listed all at once although it could begin');
      },
    };
    const catalog = fakeCatalog(cloud, {
      list,
      read: async () => {
        throw new Error('read one by one although listed');
      },
    });
    const manifests = names.map((name) => manifest('Thing', name, { region: 'west' }));

    const { plan } = await planWith(catalog, manifests, undefined, {
      events: (e) => {
        if (e.type !== 'planned') return;
        planned.push(e.address);
        if (e.address === 'Thing/quick') release();
      },
    });

    expect(planned[0]).toBe('Thing/quick');
    // The plan itself keeps the manifests' order.
    expect(plan.changes.map((c) => c.address)).toEqual(names.map((n) => `Thing/${n}`));
  });
});
