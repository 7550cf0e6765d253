// Why a change happens, as a stable code beside the prose: machines (plan JSON, jsonl, saved
// plans) read the code, people read the words. A change may gather several reasons ('revision
// changed from 3 to 4; skipped until …'); the code is the latest one's, the one that decides
// what apply does with the change.
import type { PlannedChange } from './types.js';

/** Every reason a planned change can carry; a new reason gets a new code, a code never changes meaning. */
export const REASON_CODES = [
  /** Recorded in state, but the service no longer has it: created again. */
  'vanished',
  /** A field that cannot change in place changed: the resource is replaced. */
  'immutable-field',
  /** `--replace ADDR` asked for the replace. */
  'forced-replace',
  /** A job's spec.revision changed since its last run. */
  'revision-changed',
  /** A job with no run recorded. */
  'never-run',
  /** A job whose outcome was unknown: the service knows it now, and apply follows that run. */
  'resumes-unknown',
  /** A job whose run started earlier (an apply was interrupted): apply follows that run. */
  'resumes-started',
  /** A job the user resolved as failed (`moor state resolve --failed`): it runs again. */
  'resolved-failed',
  /** A job whose outcome is unknown and the service cannot tell: nothing runs until the user resolves it. */
  'outcome-unknown',
  /** The service still carries out an earlier write: apply waits for it. */
  'in-progress',
  /** The service ended an earlier write failed: apply reports it failed. */
  'write-failed',
  /** Left the manifests and `--prune` deletes it. */
  'pruned',
  /** A policy refuses the change: apply fails it. */
  'policy-refused',
  /** It depends on a change apply will not carry out (refused, of unknown outcome, or failed): apply skips it. */
  'held-back',
  /** The change no longer matches the saved plan apply --plan holds it to: apply refuses it. */
  'saved-plan-refused',
] as const;

export type ReasonCode = (typeof REASON_CODES)[number];

/** A reason: its code and its words. */
export interface Reason {
  readonly code: ReasonCode;
  readonly text: string;
}

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
