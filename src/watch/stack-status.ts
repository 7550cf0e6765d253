// moor watch: what a stack looks like after a cycle — each resource's status and the cycle's result — for /api/status and the metrics.
import type { StepOutcome } from '../core/events.js';
import { UNKNOWN_OUTCOME } from '../engine/plan/unknown-outcome.js';
import type { Plan, PlannedChange } from '../engine/plan/types.js';
import type { StateDocument } from '../engine/state/types.js';

/**
 * in_sync: live matches the manifest; drifted: live moved since the last apply; pending: the
 * manifest changed and is not applied yet (or waits for --self-heal); held (shown as blocked): a
 * change watch will not make by itself (destructive without --allow-destructive) or the plan
 * refuses (a protected replace or delete, a policy); failed: its last apply failed;
 * in_progress: the service still carries out an earlier write (a group provisioning); unknown: a
 * job whose outcome is unknown (the answer to its request was lost) until the user resolves it.
 */
/** A cycle's result. in_sync: nothing to do; drifted / pending: found, not applied; healed: applied; failed; locked: another run held the state lock. */
export type CycleResult = 'in_sync' | 'drifted' | 'pending' | 'healed' | 'failed' | 'locked';

export type ResourceState = 'in_sync' | 'drifted' | 'pending' | 'held' | 'failed' | 'in_progress' | 'unknown';

export interface ResourceStatus {
  readonly address: string;
  readonly kind: string;
  readonly status: ResourceState;
  /** The planned action when not in sync. */
  readonly action?: string;
  /** Why it failed or is held. */
  readonly detail?: string;
  /** When state last recorded a change of it (ISO 8601); absent for what was never applied. */
  readonly changedAt?: string;
}

/**
 * Each resource's status from the plan of a cycle and, when it applied, the outcomes; `state` (the
 * one the plan was made from) dates each resource's last change.
 */
export function resourceStatuses(
  plan: Plan,
  outcomes: readonly StepOutcome[] = [],
  held: ReadonlySet<string> = new Set(),
  state?: StateDocument,
): ResourceStatus[] {
  const byAddress = new Map(outcomes.map((o) => [o.address, o]));
  const unknown = new Set(plan.diagnostics.filter((d) => d.code === UNKNOWN_OUTCOME && d.address).map((d) => d.address));
  // A change the plan refuses (a protected replace or delete, a policy's refusal) is blocked, not merely "manifest changed".
  const blocked = new Map(
    plan.diagnostics.flatMap((d) =>
      d.severity === 'error' && d.address && d.code !== UNKNOWN_OUTCOME ? [[d.address, blockedDetail(d.address, d.message)] as const] : [],
    ),
  );
  const appliedAt = new Date().toISOString();
  return plan.changes
    .filter((c) => !c.check)
    .map((c) => {
      const outcome = byAddress.get(c.address);
      const changedAt = outcome?.status === 'done' && c.action !== 'no-op' ? appliedAt : state?.resources[c.address]?.updatedAt;
      const status = statusOf(c, outcome, held.has(c.address), unknown.has(c.address), blocked.get(c.address));
      return changedAt ? { ...status, changedAt } : status;
    });
}

/** The refusal's message without the address it starts with (the row already names it). */
function blockedDetail(address: string, message: string): string {
  return message.startsWith(`${address} `)
    ? message.slice(address.length + 1)
    : message.startsWith(`${address}: `)
      ? message.slice(address.length + 2)
      : message;
}

function statusOf(c: PlannedChange, outcome: StepOutcome | undefined, held: boolean, unknown: boolean, blockedBy?: string): ResourceStatus {
  const base = { address: c.address, kind: c.kind };
  if (unknown) return { ...base, status: 'unknown', detail: 'the outcome of its last run is unknown: moor state resolve tells moor what happened' };
  if (outcome?.status === 'done') return { ...base, status: 'in_sync' };
  if (outcome && outcome.status !== 'skipped') return { ...base, status: 'failed', action: c.action, ...(outcome.error ? { detail: outcome.error } : {}) };
  if (c.inProgress) return { ...base, status: 'in_progress', detail: c.inProgress };
  if (c.action === 'no-op') return { ...base, status: 'in_sync' };
  if (blockedBy !== undefined) return { ...base, status: 'held', action: c.action, detail: blockedBy };
  if (held) return { ...base, status: 'held', action: c.action, detail: `destructive: watch applies it only when named, --allow-destructive ${c.address}` };
  return { ...base, status: c.drift ? 'drifted' : 'pending', action: c.action };
}
