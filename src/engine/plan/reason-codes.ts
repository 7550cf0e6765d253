// The reasons a planned change can carry, as stable codes: the vocabulary both the change's type
// (types.ts) and the functions that give a change its reason (reasons.ts) stand on.

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
