// How an apply ended, counted once for every report of it (the closing line, jsonl's apply_summary,
// the --notify report), so they never disagree.
import { countsAsChange, type StepOutcome } from './events.js';

export interface ApplyCounts {
  readonly created: number;
  readonly updated: number;
  readonly replaced: number;
  readonly deleted: number;
  readonly run: number;
  /** Changes that failed; a failed no-op counts only when it followed an earlier write (see countsAsChange). */
  readonly failed: number;
  /** Changes the plan refused (a policy, a saved plan that no longer holds): not tried, so not failed. */
  readonly refused: number;
  readonly interrupted: number;
  /** Every step skipped, no-ops included: work held back all the same. */
  readonly skipped: number;
  /** Anything failed (a job of unknown outcome too), was interrupted or was skipped. */
  readonly incomplete: boolean;
}

export function countOutcomes(outcomes: readonly StepOutcome[]): ApplyCounts {
  const done = (action: string) => outcomes.filter((o) => o.status === 'done' && o.action === action).length;
  const failed = outcomes.filter((o) => o.status === 'failed' && countsAsChange(o) && !o.refused).length;
  const refused = outcomes.filter((o) => o.status === 'failed' && o.refused).length;
  const interrupted = outcomes.filter((o) => o.status === 'interrupted').length;
  const skipped = outcomes.filter((o) => o.status === 'skipped').length;
  const incomplete = outcomes.some((o) => o.status === 'failed' || o.status === 'interrupted' || o.status === 'skipped');
  return {
    created: done('create'),
    updated: done('update'),
    replaced: done('replace'),
    deleted: done('delete'),
    run: done('run'),
    failed,
    refused,
    interrupted,
    skipped,
    incomplete,
  };
}

/** Changes made: what "done" means in a report (a no-op is no change). */
export function changesDone(c: ApplyCounts): number {
  return c.created + c.updated + c.replaced + c.deleted + c.run;
}
