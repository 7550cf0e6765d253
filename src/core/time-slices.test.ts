// Work done in many small steps by several callers at once lets the event loop run between slices.
import { describe, expect, it } from 'vitest';
import { timeSlices } from './time-slices.js';

/** Three callers doing `steps` steps of 1 ms (a fake clock) each; at which step a timer set at the start ran. */
async function stepWhenTimerRan(checkpoint: (slice: () => Promise<void> | undefined) => Promise<void> | undefined, steps: number): Promise<number | undefined> {
  let clock = 0;
  let done = 0;
  let ranAt: number | undefined;
  setImmediate(() => {
    ranAt = done;
  });
  const slice = timeSlices(5, () => clock);
  const caller = async () => {
    for (let i = 0; i < steps; i++) {
      await checkpoint(slice);
      clock += 1;
      done += 1;
    }
  };
  await Promise.all([caller(), caller(), caller()]);
  return ranAt;
}

describe('timeSlices', () => {
  it('lets the event loop run once a slice is used up, though several callers work at once', async () => {
    expect(await stepWhenTimerRan((slice) => slice(), 100)).toBeLessThanOrEqual(5 + 3);
  });

  it('is needed: callers that only await hold the event loop until all of them are done', async () => {
    expect(await stepWhenTimerRan(() => undefined, 100)).toBeUndefined();
  });
});
