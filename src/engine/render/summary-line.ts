// The last line of a plan or drift report, which pipelines and people read first.
import type { PlanSummary } from '../plan/types.js';

export const NO_CHANGES = 'No changes. Live resources match the manifests.';
/** Said instead of NO_CHANGES when errors kept the plan from deciding everything. */
export const INCOMPLETE = 'No changes planned, but the plan is incomplete: see the errors.';
export const NO_DRIFT = 'No drift: live resources match the last apply.';

/** `Plan: 2 to create, 1 to update, 0 to replace, 0 to delete, 1 to run.` */
export function summaryLine(s: PlanSummary): string {
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.delete} to delete, ${s.run} to run.`;
}

/** `Drift: 2 resources drifted.`, or the no-drift line. */
export function driftLine(drifted: number): string {
  if (drifted === 0) return NO_DRIFT;
  return `Drift: ${drifted} ${drifted === 1 ? 'resource' : 'resources'} drifted.`;
}
