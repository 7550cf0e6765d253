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
import { notApproved, stackOf, type OperationHost } from './operation-host.js';
import { requireNotifyTarget, type Notifier } from './notifier.js';
import { underStateLock } from './state-lock.js';

export interface ApplyOperationRequest {
  /** What to plan (a saved plan's own inputs for apply --plan). */
  readonly inputs: PlanInputs;
  /** apply --plan: the saved plan read (`file` names it in messages); it is held to, never re-planned. */
  readonly saved?: { readonly file: string; readonly plan: SavedPlan };
  /** Apply without asking (--auto-approve); a saved plan was reviewed already and is never asked about. */
  readonly autoApprove: boolean;
  readonly parallelism: number;
  readonly lockTimeoutMs: number;
  readonly notify?: Notifier;
}

export async function apply(session: Session, request: ApplyOperationRequest, host: OperationHost): Promise<number> {
  requireNotifyTarget(session, request.notify);
  return underStateLock(session, 'moor apply', { timeoutMs: request.lockTimeoutMs }, async () => {
    const prepared = await planOrHold(session, request, host);
    await host.events({ type: 'plan_ready', mode: request.inputs.refreshOnly ? 'drift' : 'plan', plan: prepared.plan, ...stackOf(session) });
    // An unknown outcome is an error that blocks only its dependents: the rest is applied.
    if (blockingErrors(prepared.plan.diagnostics).length > 0) return 1;
    if (hasChanges(prepared.plan) && !request.autoApprove && !request.saved) {
      const answer = host.confirm ? await host.confirm() : 'closed';
      if (answer !== 'yes') {
        const { line, code } = notApproved(answer);
        session.events({ type: 'notice', message: line });
        return code;
      }
    }
    const outcomes = request.inputs.refreshOnly ? await acceptDrift(session, request, host, prepared) : await applySteps(session, request, host, prepared);
    await host.events({ type: 'apply_done', outcomes, refresh: request.inputs.refreshOnly, ...stackOf(session) });
    await request.notify?.('apply', prepared.plan, outcomes);
    return outcomes.some((o) => o.status !== 'done') ? 1 : 0;
  });
}

async function planOrHold(session: Session, request: ApplyOperationRequest, host: OperationHost): Promise<PreparedPlan> {
  const planned = await preparePlan(session, { ...request.inputs, cwd: host.cwd, env: host.env });
  return request.saved ? holdToSaved(kindContext(session), request.saved.file, request.saved.plan, planned) : planned;
}

/** For the run's history: what applied and the manifest paths (their git commit). */
function runLabel(request: ApplyOperationRequest, command: string) {
  return { command, paths: request.inputs.paths };
}

function acceptDrift(session: Session, request: ApplyOperationRequest, host: OperationHost, prepared: PreparedPlan): Promise<StepOutcome[]> {
  return refreshPrepared(session, { prepared, cwd: host.cwd, env: host.env, run: runLabel(request, 'apply --refresh-only') });
}

/** The steps, stopped by the host's signals: what is in flight finishes and is recorded, nothing new starts. */
async function applySteps(session: Session, request: ApplyOperationRequest, host: OperationHost, prepared: PreparedPlan): Promise<StepOutcome[]> {
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
  try {
    await host.events({ type: 'apply_started', plan: prepared.plan, stats: () => session.scheduler.stats() });
    return await applyPrepared(session, {
      prepared, parallelism: request.parallelism, signal: controller.signal, cwd: host.cwd, env: host.env,
      run: runLabel(request, request.saved ? 'apply --plan' : 'apply'),
    });
  } finally {
    stopListening?.();
  }
}
