// The order test files start in: longest first, with files that mostly wait put off while two of them
// would run, as the last run's durations play out over the workers.
import { expect, test } from 'vitest';
import { spreadWaiting } from './slowest-first-sequencer.js';

interface File {
  name: string;
  seconds: number;
  waits: boolean;
}
const order = (files: File[], workers: number) =>
  spreadWaiting(
    files,
    (f) => f.seconds,
    (f) => f.waits,
    workers,
  ).map((f) => f.name);

test('longest first when no file waits', () => {
  const files = [
    { name: 'a', seconds: 9, waits: false },
    { name: 'b', seconds: 5, waits: false },
    { name: 'c', seconds: 1, waits: false },
  ];
  expect(order(files, 2)).toEqual(['a', 'b', 'c']);
});

test('a third waiting file is put off while two run: the busy files start before it', () => {
  const files = [
    { name: 'w1', seconds: 10, waits: true },
    { name: 'w2', seconds: 9, waits: true },
    { name: 'w3', seconds: 8, waits: true },
    { name: 'b1', seconds: 3, waits: false },
    { name: 'b2', seconds: 2, waits: false },
    { name: 'b3', seconds: 1, waits: false },
  ];
  // Four workers: w1 and w2 run, so w3 is put off for b1 and b2; when b2 ends (at 2 s) two waiting files still
  // run, so b3 takes its place; w3 comes once no busy file is left.
  expect(order(files, 4)).toEqual(['w1', 'w2', 'b1', 'b2', 'b3', 'w3']);
});

test('waiting files run in their order when nothing else is left', () => {
  const files = [
    { name: 'w1', seconds: 3, waits: true },
    { name: 'w2', seconds: 2, waits: true },
    { name: 'w3', seconds: 1, waits: true },
  ];
  expect(order(files, 4)).toEqual(['w1', 'w2', 'w3']);
});
