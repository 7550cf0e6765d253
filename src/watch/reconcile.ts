// moor watch: one reconcile cycle of one stack — plan, and with --self-heal apply — through the engine's operations, as moor plan and moor apply run them.
// The cycle's report is made from the results the operations send on the event stream, as the CLI's reporters make theirs.
import { UserError, type Diagnostic } from '../core/diagnostics.js';
import type { StepOutcome } from '../core/events.js';
import type { PreparedPlan } from '../engine/workflow.js';
import type { PlanMadeFrom } from '../engine/operations/run-events.js';
import { apply } from '../engine/operations/apply-operation.js';
import { plan } from '../engine/operations/plan-operation.js';
import { eventsNotify, type OperationHost } from '../engine/operations/operation-host.js';
import type { EventSink } from '../core/events.js';
import type { PlanInputs } from '../engine/plan/plan-document.js';
import { hasChanges, type Plan, type PlannedChange } from '../engine/plan/types.js';
import { blockingErrors } from '../engine/plan/unknown-outcome.js';
import { PROTECTED_RUN } from '../engine/plan/protected-change.js';
import type { Session } from '../engine/session.js';
import type { DependencyGraph } from '../engine/graph.js';
import { isStateLocked } from '../engine/state/state-locked-error.js';
import { resourceStatuses, type CycleResult, type ResourceStatus } from './stack-status.js';
import { cycleResults, type CycleResults } from './cycle-results.js';

export interface ReconcileOptions {
  readonly paths: readonly string[];
  readonly selfHeal: boolean;
  readonly prune: boolean;
  /**
   * The destructive changes --self-heal may make (a refresh job, a replace that loses data), by address
   * (--allow-destructive ADDR, as apply takes it: a protected job runs only when named); others are held.
   */
  readonly allowDestructive: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Aborted on SIGTERM/SIGINT: the apply in flight finishes its steps in flight and records them. */
  readonly signal: AbortSignal;
  /** Where the stack's events go while a cycle runs (the log's notices, metrics, the dashboard's feed): those the session was opened with. */
  readonly events?: EventSink;
}

export interface CycleReport {
  readonly result: CycleResult;
  readonly resources?: readonly ResourceStatus[];
  /** What was found (drifted or pending addresses), or why the cycle failed: the finding notifications compare. */
  readonly findings: readonly string[];
  readonly plan?: Plan;
  /** The manifests' dependency graph the plan was made with (the dashboard draws it). */
  readonly graph?: DependencyGraph;
  readonly outcomes?: readonly StepOutcome[];
  /** The cycle's error, for the log and /api/status. */
  readonly error?: string;
}

/** One cycle under the stack's state lock. A held lock is no failure: the cycle is skipped (another run is applying). */
export async function reconcileOnce(session: Session, options: ReconcileOptions): Promise<CycleReport> {
  const gathered = cycleResults();
  // The results make the report; what happens on the way goes where the stack's events go (log, metrics, dashboard).
  const host: OperationHost = { cwd: options.cwd, env: options.env, notify: eventsNotify(options.events, gathered.events) };
  try {
    if (options.selfHeal) await heal(session, options, host);
    else await plan(session, { inputs: inputsOf(options), lock: WATCH_LOCK }, host);
  } catch (err) {
    // A user's error ended the operation, which said so (run_failed): the report tells it. A bug: the stack's loop reports it.
    if (!(err instanceof UserError)) throw err;
  }
  return reportOf(gathered.results(), options);
}

/** The engine's operations run for the watch: its inputs, its lock (never waited for), no person to ask. */
const WATCH_LOCK = { timeoutMs: 0, holder: 'moor watch' };

function inputsOf(options: ReconcileOptions): PlanInputs {
  return { paths: options.paths, targets: [], prune: options.prune, replace: [], refreshOnly: false, allowDestructive: options.allowDestructive };
}

/** With --self-heal: the apply operation, reviewing its plan as a person would not be there to (what is held, nothing when in sync). */
async function heal(session: Session, options: ReconcileOptions, host: OperationHost): Promise<void> {
  const review = async (prepared: PreparedPlan, replan: (targets: readonly string[]) => Promise<PreparedPlan>): Promise<PreparedPlan | undefined> => {
    const held = heldBack(prepared.plan.changes, options);
    if (!hasChanges(prepared.plan)) return undefined;
    if (held.size === 0) return prepared;
    const safe = prepared.plan.changes.filter((c) => c.action !== 'no-op' && c.action !== 'delete' && !held.has(c.address)).map((c) => c.address);
    // Only what depends on nothing held: a target brings its dependencies along.
    if (safe.length === 0) return undefined;
    const narrowed = await replan(safe);
    return narrowed.plan.changes.some((c) => held.has(c.address) && c.action !== 'no-op') ? undefined : narrowed;
  };
  await apply(session, { inputs: inputsOf(options), autoApprove: true, lock: WATCH_LOCK, command: 'watch', signal: options.signal, review }, host);
}

/** The cycle's report from its results: found (drifted, pending), applied (healed), failed, or skipped (locked). */
export function reportOf(results: CycleResults, options: Pick<ReconcileOptions, 'selfHeal' | 'prune' | 'allowDestructive'>): CycleReport {
  const { plan: planned, made, failure } = results;
  if (failure) {
    if (isStateLocked(failure)) return { result: 'locked', findings: [], error: failure.message };
    return { result: 'failed', findings: [failure.message], error: failure.message };
  }
  if (!planned) return { result: 'failed', findings: ['no plan was made'], error: 'no plan was made' };
  const held = heldBack(planned.changes, options);
  // A protected job's destructive run is refused until named: held (as --self-heal holds it), not a failed cycle.
  const errors = blockingErrors(planned.diagnostics).filter((d) => !(d.code === PROTECTED_RUN && d.address !== undefined && held.has(d.address)));
  if (errors.length > 0) return failed(planned, made, errors);
  const statuses = (outcomes?: readonly StepOutcome[]) => resourceStatuses(planned, outcomes, held, made?.state);
  if (!hasChanges(planned)) return { result: 'in_sync', resources: statuses(), findings: [], plan: planned, graph: made?.graph };
  const findings = findingsOf(planned);
  const { applied, outcomes } = results;
  if (!applied || !outcomes) {
    const drifted = !options.selfHeal && planned.changes.some((c) => c.drift);
    return { result: drifted ? 'drifted' : 'pending', resources: statuses(), findings, plan: planned, graph: made?.graph };
  }
  const failures = outcomes.filter((o) => o.status === 'failed' || o.status === 'interrupted').map((o) => `${o.address}: ${o.error ?? o.status}`);
  // The whole stack's plan: a narrowed apply (what is held left out) still reports every resource.
  const done = { resources: statuses(outcomes), plan: applied, graph: made?.graph, outcomes };
  if (failures.length > 0) return { result: 'failed', ...done, findings: failures, error: failures.join('; ') };
  // What was healed is still told once (found, and repaired); the next cycle in sync tells it resolved.
  return { result: held.size > 0 ? 'pending' : 'healed', ...done, findings };
}

/** Destructive changes --self-heal leaves alone: those not named with --allow-destructive (a --prune delete was asked for). */
function heldBack(changes: readonly PlannedChange[], { prune, allowDestructive }: Pick<ReconcileOptions, 'prune' | 'allowDestructive'>): Set<string> {
  return new Set(
    changes
      .filter((c) => c.destructive && c.action !== 'no-op' && !(prune && c.action === 'delete') && !allowDestructive.includes(c.address))
      .map((c) => c.address),
  );
}

/** What a cycle found, as stable lines: a new set of lines is a new finding. */
function findingsOf(plan: Plan): string[] {
  return plan.changes
    .filter((c) => c.action !== 'no-op' && !c.check)
    .map((c) => `${c.address}: ${c.drift ? 'drifted' : 'manifest changed'} (${c.action})`)
    .sort();
}

function failed(plan: Plan, made: PlanMadeFrom | undefined, diagnostics: readonly Diagnostic[]): CycleReport {
  const errors = diagnostics.map((d) => (d.address && !d.message.startsWith(d.address) ? `${d.address}: ${d.message}` : d.message));
  return {
    result: 'failed',
    resources: resourceStatuses(plan, [], new Set(), made?.state),
    findings: [...errors].sort(),
    plan,
    graph: made?.graph,
    error: errors.join('; '),
  };
}
