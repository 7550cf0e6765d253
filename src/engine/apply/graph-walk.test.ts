// The graph walk: dependencies first, the most urgent ready step first, never more than the limit
// running at once, the dependents of a failure skipped with its root cause.
import { describe, expect, test } from 'vitest';
import type { StepOutcome } from '../../core/events.js';
import { walkGraph, type GraphWalk } from './graph-walk.js';

interface Trace {
  started: string[];
  maxRunning: number;
}

/** A walk of `deps` (address -> what it waits on) whose steps take one macrotask; `failing` fail. */
function walk(
  deps: Record<string, string[]>,
  o: { limit?: number; failing?: string[]; priority?: Record<string, number> } = {},
): { walk: GraphWalk; trace: Trace } {
  const trace: Trace = { started: [], maxRunning: 0 };
  let running = 0;
  return {
    trace,
    walk: {
      addresses: Object.keys(deps),
      waitsOn: (a) => deps[a] ?? [],
      priority: (a) => o.priority?.[a] ?? 0,
      limit: o.limit ?? 100,
      run: async (address) => {
        trace.started.push(address);
        trace.maxRunning = Math.max(trace.maxRunning, ++running);
        await new Promise((r) => setImmediate(r));
        running--;
        return { address, action: 'create', status: o.failing?.includes(address) ? 'failed' : 'done' };
      },
      blocks: (outcome) => outcome.status !== 'done',
      skip: (address, blocker): StepOutcome => ({ address, action: 'create', status: 'skipped', rootCause: blocker.rootCause ?? blocker.address }),
    },
  };
}

describe('walkGraph', () => {
  test('never runs more steps at once than its limit, and runs them all', async () => {
    const deps = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`g${i}`, []]));
    const { walk: w, trace } = walk(deps, { limit: 7 });
    const outcomes = await walkGraph(w);
    expect(trace.maxRunning).toBe(7);
    expect(outcomes.map((o) => o.status)).toEqual(Array(1000).fill('done'));
  });

  test('a step starts only once what it waits on has finished, whatever the order given', async () => {
    const { walk: w, trace } = walk({ c: ['b'], b: ['a'], a: [] });
    await walkGraph(w);
    expect(trace.started).toEqual(['a', 'b', 'c']);
  });

  test('among ready steps the highest priority starts first, equal ones in the order given', async () => {
    const { walk: w, trace } = walk({ leaf1: [], leaf2: [], chain: [], leaf3: [] }, { limit: 1, priority: { chain: 5, leaf3: 1 } });
    await walkGraph(w);
    expect(trace.started).toEqual(['chain', 'leaf3', 'leaf1', 'leaf2']);
  });

  test('the dependents of a failure are skipped naming the root cause, through the chain; the rest runs', async () => {
    const { walk: w, trace } = walk({ db: [], app: ['db'], web: ['app'], other: [] }, { failing: ['db'] });
    const outcomes = await walkGraph(w);
    expect(outcomes).toEqual([
      { address: 'db', action: 'create', status: 'failed' },
      { address: 'app', action: 'create', status: 'skipped', rootCause: 'db' },
      { address: 'web', action: 'create', status: 'skipped', rootCause: 'db' },
      { address: 'other', action: 'create', status: 'done' },
    ]);
    expect(trace.started.sort()).toEqual(['db', 'other']);
  });

  test('what a step names but the walk does not hold is not waited for', async () => {
    const { walk: w } = walk({ app: ['AuthContext/elsewhere'] });
    await expect(walkGraph(w)).resolves.toEqual([{ address: 'app', action: 'create', status: 'done' }]);
  });

  test('a long chain of skips does not overflow the stack', async () => {
    const deps: Record<string, string[]> = { s0: [] };
    for (let i = 1; i < 20_000; i++) deps[`s${i}`] = [`s${i - 1}`];
    const { walk: w } = walk(deps, { failing: ['s0'] });
    const outcomes = await walkGraph(w);
    expect(outcomes.at(-1)).toEqual({ address: 's19999', action: 'create', status: 'skipped', rootCause: 's0' });
  });

  test('a run that throws rejects the walk', async () => {
    const { walk: w } = walk({ a: [] });
    await expect(
      walkGraph({
        ...w,
        run: async () => {
          throw new Error('state write failed');
        },
      }),
    ).rejects.toThrow('state write failed');
  });
});
