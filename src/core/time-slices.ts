// Long stretches of work on the event loop (planning 100,000 manifests) let the loop run between
// slices, so answers are taken in and the next requests go out while the work goes on: under a
// rate limit a loop held for seconds leaves the service's tokens unspent.
import { setImmediate } from 'node:timers/promises';

/** How long work holds the event loop at most: short enough that answers and requests go on between. */
const SLICE_MS = 20;

/**
 * A checkpoint for work done in many small steps, possibly several at once: it resolves at once
 * until `sliceMs` have passed since the loop last ran, then every caller waits for the same turn
 * of the event loop (one caller yielding alone would leave the others running in microtasks).
 */
export function timeSlices(sliceMs = SLICE_MS, now: () => number = () => performance.now()): () => Promise<void> | undefined {
  let since = now();
  let turn: Promise<void> | undefined;
  return () => {
    if (turn) return turn;
    if (now() - since < sliceMs) return undefined;
    turn = setImmediate().then(() => {
      turn = undefined;
      since = now();
    });
    return turn;
  };
}
