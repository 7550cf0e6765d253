// Reading by listing and planning use one resolution of each manifest: its placeholders (env, files) are read once.
import { describe, expect, it } from 'vitest';
import { makePlan } from './planner.js';
import { EMPTY_STATE, FakeCloud, fakeCatalog, manifest } from '../testing/fake-kinds.js';
import type { KindContext } from '../../core/kind.js';

async function envReadsWhilePlanning(listable: boolean): Promise<number> {
  let reads = 0;
  const env = new Proxy({ REGION: 'west' } as NodeJS.ProcessEnv, {
    get: (target, key) => { if (key === 'REGION') reads++; return Reflect.get(target, key); },
  });
  const list = { complete: false, readAll: async (_ctx: KindContext, targets: readonly unknown[]) => targets.map(() => 'read' as const) };
  const kinds = fakeCatalog(new FakeCloud(), listable ? { list } : {});
  await makePlan({
    manifests: [manifest('Thing', 'a', { region: '${env:REGION}' })],
    kinds, state: EMPTY_STATE, ctx: { providers: {} as KindContext['providers'], log: () => undefined },
    resolve: { env }, parallelism: 1,
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
