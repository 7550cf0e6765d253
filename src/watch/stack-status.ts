// moor watch: what a stack looks like after a cycle — each resource's status and the cycle's result — for /api/status and the metrics.
import type { StepOutcome } from '../core/events.js';
import type { Plan, PlannedChange } from '../engine/plan/types.js';

/**
 * in_sync: live matches the manifest; drifted: live moved since the last apply; pending: the
 * manifest changed and is not applied yet (or waits for --self-heal); held: a change watch will not
 * make by itself (destructive without --allow-destructive); failed: its last apply failed.
 */
export type ResourceState = 'in_sync' | 'drifted' | 'pending' | 'held' | 'failed';

export interface ResourceStatus {
  readonly address: string;
  readonly kind: string;
  readonly status: ResourceState;
  /** The planned action when not in sync. */
  readonly action?: string;
  /** Why it failed or is held. */
  readonly detail?: string;
}

/** Each resource's status from the plan of a cycle and, when it applied, the outcomes. */
export function resourceStatuses(plan: Plan, outcomes: readonly StepOutcome[] = [], held: ReadonlySet<string> = new Set()): ResourceStatus[] {
  const byAddress = new Map(outcomes.map((o) => [o.address, o]));
  return plan.changes.filter((c) => !c.check).map((c) => statusOf(c, byAddress.get(c.address), held.has(c.address)));
}

function statusOf(c: PlannedChange, outcome: StepOutcome | undefined, held: boolean): ResourceStatus {
  const base = { address: c.address, kind: c.kind };
  if (outcome && outcome.status === 'done') return { ...base, status: 'in_sync' };
  if (outcome && outcome.status !== 'skipped') return { ...base, status: 'failed', action: c.action, ...(outcome.error ? { detail: outcome.error } : {}) };
  if (c.action === 'no-op') return { ...base, status: 'in_sync' };
  if (held) return { ...base, status: 'held', action: c.action, detail: 'destructive: watch applies it only with --allow-destructive' };
  return { ...base, status: c.drift ? 'drifted' : 'pending', action: c.action };
}
