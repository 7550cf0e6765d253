// The turn pacer: a few steps per turn of the event loop go on at once, the others in later turns, most urgent first.
import { expect, test } from 'vitest';
import { TurnPacer } from './turn-pacer.js';

const nextTurn = () => new Promise((r) => setImmediate(r));

test('lets perTurn steps through in a turn and the rest in the turns after, most urgent first', async () => {
  const pacer = new TurnPacer(2);
  const went: string[] = [];
  const step = (name: string, priority: number) => {
    const wait = pacer.turn(priority);
    if (!wait) went.push(name);
    else void wait.then(() => went.push(name));
  };
  step('a', 0);
  step('b', 0);
  step('c', 0);
  step('d', 5);
  step('e', 0);
  expect(went).toEqual(['a', 'b']);
  await nextTurn();
  expect(went.slice(0, 4)).toEqual(['a', 'b', 'd', 'c']);
  for (let i = 0; i < 3; i++) await nextTurn();
  expect(went).toEqual(['a', 'b', 'd', 'c', 'e']);
});

test('a step arriving while others wait queues behind them by urgency, not ahead in the same turn', async () => {
  const pacer = new TurnPacer(1);
  expect(pacer.turn(0)).toBeUndefined();
  const second = pacer.turn(0);
  expect(second).toBeInstanceOf(Promise);
  await second;
  // In the turn that released the second, the count is spent: a newcomer waits for the next turn.
  expect(pacer.turn(0)).toBeInstanceOf(Promise);
});
