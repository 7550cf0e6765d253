// Why a change happens, as a stable code beside the prose: machines (plan JSON, jsonl, saved
// plans) read the code, people read the words. A change may gather several reasons ('revision
// changed from 3 to 4; skipped until …'); the code is the latest one's, the one that decides
// what apply does with the change.
import type { Reason } from './reason-codes.js';
import type { PlannedChange } from './types.js';

export { REASON_CODES, type Reason, type ReasonCode } from './reason-codes.js';

/** The change's fields for one reason (for a change being built). */
export function reasonFields(reason: Reason | undefined): Pick<PlannedChange, 'reason' | 'reasonCode'> {
  return reason ? { reason: reason.text, reasonCode: reason.code } : {};
}

/** The change with one more reason: its words after those it had, its code the change's code now. */
export function withReason(change: PlannedChange, reason: Reason): PlannedChange {
  return { ...change, reason: change.reason ? `${change.reason}; ${reason.text}` : reason.text, reasonCode: reason.code };
}

/** The change with its reason replaced (the earlier words no longer apply). */
export function withOnlyReason(change: PlannedChange, reason: Reason): PlannedChange {
  return { ...change, reason: reason.text, reasonCode: reason.code };
}
