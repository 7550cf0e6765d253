// The order test files start in: longest first, with files that mostly wait put off while two of them
// would run, as the last run's durations play out over the workers.
import { expect, test } from 'vitest';
import { spreadWaiting } from './slowest-first-sequencer.js';

/** Files as `name:seconds`, a trailing `w` for one that mostly waits; their names in the order they start in. */
function order(files: readonly string[], workers: number): string[] {
  const parsed = files.map((f) => ({ name: f.split(':')[0], seconds: Number.parseFloat(f.split(':')[1]), waits: f.endsWith('w') }));
  return spreadWaiting(
    parsed,
    (f) => f.seconds,
    (f) => f.waits,
    workers,
  ).map((f) => f.name);
}

test('longest first when no file waits', () => {
  expect(order(['a:9', 'b:5', 'c:1'], 2)).toEqual(['a', 'b', 'c']);
});

test('a third waiting file is put off while two run: the busy files start before it', () => {
  // Four workers: w1 and w2 run, so w3 is put off for b1 and b2; when b2 ends (at 2 s) two waiting files still
  // run, so b3 takes its place; w3 comes once no busy file is left.
  expect(order(['w1:10w', 'w2:9w', 'w3:8w', 'b1:3', 'b2:2', 'b3:1'], 4)).toEqual(['w1', 'w2', 'b1', 'b2', 'b3', 'w3']);
});

test('waiting files run in their order when nothing else is left', () => {
  expect(order(['w1:3w', 'w2:2w', 'w3:1w'], 4)).toEqual(['w1', 'w2', 'w3']);
});
