// moor apply as an operation (as the CDK toolkit's deploy or Terraform's backend apply): under the
// state lock plan (or hold a fresh plan to a saved one), send it as `plan_ready`, ask the host to
// confirm, apply with the host's stop signals (or accept drift into state: refresh-only), send
// `apply_done`, notify. Resolves to the exit code.
import { setMaxListeners } from 'node:events';
import type { StepOutcome } from '../../core/events.js';
import { holdToSaved } from '../plan/hold-to-saved.js';
import type { PlanInputs } from '../plan/plan-document.js';
import type { SavedPlan } from '../plan/saved-plan.js';
import { hasChanges } from '../plan/types.js';
import { blockingErrors } from '../plan/unknown-outcome.js';
import type { Session } from '../session.js';
import { applyPrepared, kindContext, preparePlan, refreshPrepared, type PreparedPlan } from '../workflow.js';
import { madeFrom, notApproved, stackOf, type OperationHost } from './operation-host.js';
import { requireNotifyTarget, type Notifier } from './notifier.js';
import { underStateLock, type LockRequest } from './state-lock.js';
import { converse, type Tell } from './conversation.js';

export interface ApplyOperationRequest {
  /** What to plan (a saved plan's own inputs for apply --plan). */
  readonly inputs: PlanInputs;
  /** apply --plan: the saved plan read (`file` names it in messages); it is held to, never re-planned. */
  readonly saved?: { readonly file: string; readonly plan: SavedPlan };
  /** Apply without asking (--auto-approve); a saved plan was reviewed already and is never asked about. */
  readonly autoApprove: boolean;
  readonly lock: LockRequest;
  readonly notify?: Notifier;
  /** What the run's history calls it (default: apply, apply --plan, apply --refresh-only). */
  readonly command?: string;
  /** The caller's stop (moor watch's SIGTERM), besides the host's signals: steps in flight finish and are recorded. */
  readonly signal?: AbortSignal;
  /**
   * Decides, instead of a person, what of the plan goes ahead (moor watch: nothing when in sync,
   * destructive changes held back): the plan itself, a narrower one made by `replan` for some
   * targets, or undefined to apply nothing.
   */
  readonly review?: (prepared: PreparedPlan, replan: (targets: readonly string[]) => Promise<PreparedPlan>) => Promise<PreparedPlan | undefined>;
}

export interface ApplyOperationResult {
  /** 0; 1 for errors in the plan or a step that did not succeed; 130 for a confirmation interrupted. */
  readonly code: number;
  /** The whole plan, as made (or held to the saved one). */
  readonly prepared: PreparedPlan;
  /** What was applied (the review's choice), and how each step ended; absent when nothing was. */
  readonly applied?: PreparedPlan;
  readonly outcomes?: readonly StepOutcome[];
}

export async function apply(session: Session, request: ApplyOperationRequest, host: OperationHost): Promise<ApplyOperationResult> {
  return converse(session, host, 'apply', (tell) => applying(session, request, host, tell));
}

async function applying(session: Session, request: ApplyOperationRequest, host: OperationHost, tell: Tell): Promise<ApplyOperationResult> {
  requireNotifyTarget(session, request.notify);
  return underStateLock(session, 'moor apply', request.lock, async () => {
    const prepared = await planOrHold(session, request, host);
    await tell({ type: 'plan_ready', mode: request.inputs.refreshOnly ? 'drift' : 'plan', plan: prepared.plan, ...stackOf(session), made: madeFrom(prepared) });
    // An unknown outcome is an error that blocks only its dependents: the rest is applied.
    if (blockingErrors(prepared.plan.diagnostics).length > 0) return { code: 1, prepared };
    const chosen = await approved(session, request, host, prepared);
    if (typeof chosen === 'number') return { code: chosen, prepared };
    if (chosen === undefined) return { code: 0, prepared };
    const outcomes = request.inputs.refreshOnly ? await acceptDrift(session, request, host, chosen) : await applySteps(session, request, host, tell, chosen);
    await tell({ type: 'apply_done', outcomes, refresh: request.inputs.refreshOnly, ...stackOf(session) });
    await request.notify?.('apply', chosen.plan, outcomes);
    return { code: outcomes.some((o) => o.status !== 'done') ? 1 : 0, prepared, applied: chosen, outcomes };
  });
}

/** The plan to apply: as reviewed by the caller, or as a person confirmed it; a number: the exit code of an apply not approved. */
async function approved(
  session: Session,
  request: ApplyOperationRequest,
  host: OperationHost,
  prepared: PreparedPlan,
): Promise<PreparedPlan | undefined | number> {
  if (request.review) return request.review(prepared, (targets) => preparePlan(session, { ...request.inputs, targets, cwd: host.cwd, env: host.env }));
  if (!hasChanges(prepared.plan) || request.autoApprove || request.saved) return prepared;
  const answer = host.confirm ? await host.confirm() : 'closed';
  if (answer === 'yes') return prepared;
  const { line, code } = notApproved(answer);
  session.events({ type: 'notice', message: line });
  return code;
}

async function planOrHold(session: Session, request: ApplyOperationRequest, host: OperationHost): Promise<PreparedPlan> {
  const planned = await preparePlan(session, { ...request.inputs, cwd: host.cwd, env: host.env });
  return request.saved ? holdToSaved(kindContext(session), request.saved.file, request.saved.plan, planned) : planned;
}

/** For the run's history: what applied and the manifest paths (their git commit). */
function runLabel(request: ApplyOperationRequest, command: string) {
  return { command: request.command ?? command, paths: request.inputs.paths };
}

function acceptDrift(session: Session, request: ApplyOperationRequest, host: OperationHost, prepared: PreparedPlan): Promise<StepOutcome[]> {
  return refreshPrepared(session, { prepared, cwd: host.cwd, env: host.env, run: runLabel(request, 'apply --refresh-only') });
}

/** The steps, stopped by the host's signals: what is in flight finishes and is recorded, nothing new starts. */
async function applySteps(session: Session, request: ApplyOperationRequest, host: OperationHost, tell: Tell, prepared: PreparedPlan): Promise<StepOutcome[]> {
  const controller = new AbortController();
  // Every step waiting on its operation listens on this one signal (and stops listening when its
  // wait ends): hundreds at once is the design, not a leak, so Node's warning past 10 is noise.
  setMaxListeners(0, controller.signal);
  const onSignal = () => {
    if (controller.signal.aborted) return;
    session.events({ type: 'notice', message: '\nInterrupted: finishing the changes in flight and recording them; no new change starts.' });
    controller.abort();
  };
  // A closed terminal or session (SIGHUP) stops the run as SIGTERM does: in flight recorded, lock released.
  const stopListening = host.onSignals?.(['SIGINT', 'SIGTERM', 'SIGHUP'], onSignal);
  // The caller's own stop says nothing: the caller tells of it in its own words.
  const stopQuietly = () => controller.abort();
  if (request.signal?.aborted) stopQuietly();
  request.signal?.addEventListener('abort', stopQuietly);
  try {
    await tell({ type: 'apply_started', plan: prepared.plan, stats: () => session.scheduler.stats() });
    return await applyPrepared(session, {
      prepared,
      signal: controller.signal,
      cwd: host.cwd,
      env: host.env,
      run: runLabel(request, request.saved ? 'apply --plan' : 'apply'),
    });
  } finally {
    stopListening?.();
    request.signal?.removeEventListener('abort', stopQuietly);
  }
}
