// Work sharing a key never overlaps; work on other keys runs side by side; several keys never deadlock.
import { describe, expect, it } from 'vitest';
import { ExclusiveRuns } from './exclusive-runs.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('ExclusiveRuns', () => {
  it('runs work sharing a key one after the other, and work on other keys at once', async () => {
    const runs = new ExclusiveRuns();
    const log: string[] = [];
    const job = (name: string, keys: string[]) =>
      runs.run(keys, async () => {
        log.push(`${name}+`);
        await tick();
        log.push(`${name}-`);
      });
    await Promise.all([job('a', ['env-1']), job('b', ['env-1']), job('c', ['env-2'])]);
    expect(log.indexOf('a-')).toBeLessThan(log.indexOf('b+'));
    expect(log.indexOf('c+')).toBeLessThan(log.indexOf('a-'));
  });

  it('work holding two keys in opposite orders does not deadlock, and a failure releases its keys', async () => {
    const runs = new ExclusiveRuns();
    const failed = runs.run(['x'], async () => {
      await tick();
      throw new Error('boom');
    });
    const both = await Promise.all([
      runs.run(['x', 'y'], async () => {
        await tick();
        return 1;
      }),
      runs.run(['y', 'x'], async () => {
        await tick();
        return 2;
      }),
      failed.catch(() => 0),
    ]);
    expect(both).toEqual([1, 2, 0]);
  });
});
