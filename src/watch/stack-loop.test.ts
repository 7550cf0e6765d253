// A stack's loop: what it remembers between cycles, as /api/status and /readyz show it.
import { describe, expect, test } from 'vitest';
import { STALLED_CYCLES, StackLoop, type StackTarget } from './stack-loop.js';

/** A loop whose lease claims answer from `claims` in turn (a claim that throws is a failed cycle); no cycle ever plans. */
function loopWith(claims: (boolean | Error)[]): { loop: StackLoop; cycles: () => number; stop: () => Promise<void> } {
  const controller = new AbortController();
  let cycles = 0;
  const target = { name: 'prod', session: {}, options: {} } as unknown as StackTarget;
  const loop = new StackLoop(target, {
    intervalMs: 10,
    signal: controller.signal,
    onFinding: () => undefined,
    onCycle: () => {
      cycles++;
    },
    claim: async () => {
      const next = claims.shift() ?? false;
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return {
    loop,
    cycles: () => cycles,
    stop: async () => {
      controller.abort();
      await loop.stop();
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

describe('StackLoop', () => {
  test('a replica that goes standby forgets the failed result it saw last (another replica reconciles the stack)', async () => {
    const { loop, stop } = loopWith([new Error('database unreachable'), false]);
    loop.start();
    await until(() => loop.state().runs === 1);
    expect(loop.state()).toMatchObject({ lastReport: { result: 'failed' }, failures: 1 });
    await until(() => loop.state().standby);
    await stop();
    expect(loop.state().lastReport).toBeUndefined();
    expect(loop.state().failures).toBe(0);
  });

  test(`is stalled (not ready) after ${STALLED_CYCLES} cycles in a row that could not run, and ready again after one that does`, async () => {
    const claims = Array.from({ length: STALLED_CYCLES }, () => new Error('state unreachable: EMFILE'));
    const { loop, stop } = loopWith([...claims, false]);
    loop.start();
    await until(() => loop.state().runs === STALLED_CYCLES);
    expect(loop.stalledReason).toBe(`${STALLED_CYCLES} cycles in a row could not run: could not take the lease: state unreachable: EMFILE`);
    await until(() => loop.state().standby);
    await stop();
    expect(loop.stalledReason).toBeUndefined();
  });
});
