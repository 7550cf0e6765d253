// Fault injection (the --fail-rate knob): which failure, if any, a request meets. Decisions come
// from a seeded generator (--fault-seed), so the faults of a failing run can be met again.
import { seededRandom } from '../core/seeded-random.js';
import { randomInt } from 'node:crypto';

export type Fault =
  | { readonly kind: 'status'; readonly status: 500 | 503; readonly code: string; readonly message: string }
  | { readonly kind: 'throttle' }
  | { readonly kind: 'drop' };

export interface FaultPlan {
  /** Answered instead of running the handler: nothing changed server-side. */
  readonly before?: Fault;
  /** The handler ran, then the connection drops: the client loses the answer. */
  readonly dropAfter: boolean;
}

const NONE: FaultPlan = { dropAfter: false };

function pickFault(random: () => number): Fault {
  const r = random();
  if (r < 0.25)
    return {
      kind: 'status',
      status: 500,
      code: 'InternalServerError',
      message: 'The server encountered an internal error (injected fault). Please retry the request.',
    };
  if (r < 0.5)
    return {
      kind: 'status',
      status: 503,
      code: 'ServiceUnavailable',
      message: 'The service is temporarily unavailable (injected fault). Please retry the request.',
    };
  if (r < 0.75) return { kind: 'throttle' };
  return { kind: 'drop' };
}

/**
 * Decides the fault of one request. With probability `rate` a fault happens; for routes that
 * are not idempotent (`afterCommit`), half of those drop the connection after the handler ran.
 */
export function planFault(rate: number, afterCommit: boolean, random: () => number): FaultPlan {
  if (rate <= 0 || random() >= rate) return NONE;
  if (afterCommit && random() < 0.5) return { dropAfter: true };
  return { before: pickFault(random), dropAfter: false };
}

/** The largest seed: seeds are 32-bit unsigned integers. */
export const MAX_FAULT_SEED = 0xffff_ffff;

/** A seed for a run that was given none; it is printed so the run can be replayed. */
export function newFaultSeed(): number {
  return randomInt(MAX_FAULT_SEED + 1);
}

export { seededRandom };
