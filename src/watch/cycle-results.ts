// moor watch: a cycle's results as its operations send them on the event stream (plan_ready,
// apply_started, apply_done, run_failed), gathered the way the CLI's reporters read them.
import type { UserError } from '../core/diagnostics.js';
import type { StepOutcome } from '../core/events.js';
import type { PlanMadeFrom, RunSink } from '../engine/operations/run-events.js';
import type { Plan } from '../engine/plan/types.js';

export interface CycleResults {
  /** The whole plan of the cycle, and what it was made from. */
  readonly plan?: Plan;
  readonly made?: PlanMadeFrom;
  /** The plan apply carried out (the review may narrow it), and how each step ended. */
  readonly applied?: Plan;
  readonly outcomes?: readonly StepOutcome[];
  /** The user's error that ended the cycle before its result (bad manifests, a lock held). */
  readonly failure?: UserError;
}

/** A sink for one cycle's events and what it has gathered so far. */
export function cycleResults(): { readonly events: RunSink; results(): CycleResults } {
  let gathered: CycleResults = {};
  const events: RunSink = (e) => {
    if (e.type === 'plan_ready') gathered = { ...gathered, plan: e.plan, ...(e.made ? { made: e.made } : {}) };
    else if (e.type === 'apply_started') gathered = { ...gathered, applied: e.plan };
    else if (e.type === 'apply_done') gathered = { ...gathered, outcomes: e.outcomes };
    else if (e.type === 'run_failed') gathered = { ...gathered, failure: e.error };
  };
  return { events, results: () => gathered };
}
