import { describe, expect, it } from 'vitest';
import { shareStacks } from './fleet-share.js';

const names = (n: number, prefix = 'stack') => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
const counts = (share: Map<string, string>) => {
  const out: Record<string, number> = {};
  for (const r of share.values()) out[r] = (out[r] ?? 0) + 1;
  return out;
};
const moved = (a: Map<string, string>, b: Map<string, string>) => [...a.keys()].filter((s) => a.get(s) !== b.get(s)).length;

describe('the share of stacks between replicas', () => {
  it('gives each live replica stacks ÷ replicas, one more to as many as the division leaves over', () => {
    expect(counts(shareStacks({ stacks: names(12), replicas: ['a', 'b', 'c'], holders: new Map() }))).toEqual({ a: 4, b: 4, c: 4 });
    const odd = Object.values(counts(shareStacks({ stacks: names(13), replicas: ['a', 'b', 'c'], holders: new Map() }))).sort();
    expect(odd).toEqual([4, 4, 5]);
    expect(shareStacks({ stacks: names(3), replicas: [], holders: new Map() }).size).toBe(0);
  });

  it('is the same whatever order the replicas and holders are seen in', () => {
    const holders = new Map([
      ['stack-1', 'b'],
      ['stack-2', 'a'],
    ]);
    const one = shareStacks({ stacks: names(20), replicas: ['a', 'b', 'c'], holders });
    const two = shareStacks({ stacks: [...names(20)], replicas: ['c', 'a', 'b'], holders: new Map([...holders].reverse()) });
    expect(two).toEqual(one);
  });

  it('a replica that joins takes only its share; the others keep the rest', () => {
    for (const run of ['x', 'y', 'z']) {
      const stacks = names(12, run);
      const alone = shareStacks({ stacks, replicas: ['a'], holders: new Map() });
      const joined = shareStacks({ stacks, replicas: ['a', 'b', 'c'], holders: alone });
      expect(counts(joined)).toEqual({ a: 4, b: 4, c: 4 });
      expect(moved(alone, joined)).toBe(8);
    }
  });

  it('a replica that leaves has only its stacks spread; back with its id, it gets them back and nothing else moves', () => {
    for (const run of ['x', 'y', 'z', 'w']) {
      const stacks = names(12, run);
      const three = shareStacks({ stacks, replicas: ['a', 'b', 'c'], holders: new Map() });
      const holdersOf = (share: Map<string, string>, live: string[]) => new Map([...share].filter(([, r]) => live.includes(r)));
      const two = shareStacks({ stacks, replicas: ['a', 'b'], holders: holdersOf(three, ['a', 'b']) });
      expect(counts(two)).toEqual({ a: 6, b: 6 });
      expect(moved(three, two)).toBe(4);
      const back = shareStacks({ stacks, replicas: ['a', 'b', 'c'], holders: two });
      expect(counts(back)).toEqual({ a: 4, b: 4, c: 4 });
      expect(moved(two, back)).toBe(4);
    }
  });

  it('300 stacks: a join moves a third of them, a leave only the leaver’s', () => {
    const stacks = names(300);
    const two = shareStacks({ stacks, replicas: ['a', 'b'], holders: new Map() });
    const three = shareStacks({ stacks, replicas: ['a', 'b', 'c'], holders: two });
    expect(counts(three)).toEqual({ a: 100, b: 100, c: 100 });
    expect(moved(two, three)).toBe(100);
  });

  it('a replica killed and started again with its id gets exactly its old stacks back, whoever held them meanwhile', () => {
    for (const size of [12, 300]) {
      for (let run = 0; run < 40; run++) {
        const stacks = names(size, `r${run}`);
        // Started one after another, as replicas are: a alone, then b, then c join.
        let held = shareStacks({ stacks, replicas: ['a'], holders: new Map() });
        held = shareStacks({ stacks, replicas: ['a', 'b'], holders: held });
        const three = shareStacks({ stacks, replicas: ['a', 'b', 'c'], holders: held });
        // A share acted on is stable: the next look moves nothing.
        expect(moved(three, shareStacks({ stacks, replicas: ['a', 'b', 'c'], holders: three }))).toBe(0);
        const two = shareStacks({ stacks, replicas: ['a', 'b'], holders: new Map([...three].filter(([, r]) => r !== 'c')) });
        const back = shareStacks({ stacks, replicas: ['a', 'b', 'c'], holders: two });
        const of = (share: Map<string, string>) =>
          [...share]
            .filter(([, r]) => r === 'c')
            .map(([s]) => s)
            .sort();
        expect(of(back)).toEqual(of(three));
        expect(moved(two, back)).toBe(size / 3);
      }
    }
  });
});
