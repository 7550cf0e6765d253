// moor plan as an operation: under the state lock, plan; send the plan (and its JSON document when
// asked) as `plan_ready`; notify; save it for apply --plan. The exit code is the operation's too.
import { resolve } from 'node:path';
import { hasErrors } from '../../core/diagnostics.js';
import type { JsonObject } from '../../core/json.js';
import { writeSavedPlan } from '../plan/saved-plan.js';
import { liveVersions, planDocument, type PlanInputs } from '../plan/plan-document.js';
import { hasChanges, type Plan } from '../plan/types.js';
import type { Session } from '../session.js';
import { kindContext, preparePlan, type PreparedPlan } from '../workflow.js';
import { madeFrom, stackOf, type OperationHost } from './operation-host.js';
import { requireNotifyTarget, type Notifier } from './notifier.js';
import { underStateLock, type LockRequest } from './state-lock.js';
import { converse, type Tell } from './conversation.js';

export interface PlanOperationRequest {
  readonly inputs: PlanInputs;
  readonly lock: LockRequest;
  /** Save the plan there (relative to the host's folder) for `moor apply --plan`. */
  readonly out?: string;
  /** plan_ready carries the plan's JSON document (live versions read for it). */
  readonly document?: boolean;
  /** Exit 2 when there are changes. */
  readonly detailedExitcode?: boolean;
  readonly notify?: Notifier;
}

export interface PlanOperationResult {
  /** The plan and what it was made from (manifests, graph, state, steps). */
  readonly prepared: PreparedPlan;
  readonly plan: Plan;
  readonly document?: JsonObject;
  /** 0, 1 when the plan has errors, 2 for changes with detailedExitcode. */
  readonly code: number;
}

export async function plan(session: Session, request: PlanOperationRequest, host: OperationHost): Promise<PlanOperationResult> {
  return converse(session, host, 'plan', (tell) => planning(session, request, host, tell));
}

async function planning(session: Session, request: PlanOperationRequest, host: OperationHost, tell: Tell): Promise<PlanOperationResult> {
  const { inputs, out } = request;
  requireNotifyTarget(session, request.notify);
  const prepared = await underStateLock(session, 'moor plan', request.lock, () => preparePlan(session, { ...inputs, cwd: host.cwd, env: host.env }));
  const versions = out || request.document ? await liveVersions(prepared, kindContext(session)) : new Map<string, string>();
  const document = request.document ? planDocument(prepared, versions, inputs, 'mask') : undefined;
  const { plan: planned } = prepared;
  await tell({
    type: 'plan_ready',
    mode: inputs.refreshOnly ? 'drift' : 'plan',
    plan: planned,
    ...(document ? { document } : {}),
    ...stackOf(session),
    made: madeFrom(prepared),
  });
  await request.notify?.('plan', planned);
  if (hasErrors(planned.diagnostics)) {
    if (out) session.events({ type: 'notice', message: `The plan has errors: it was not saved to ${out}.` });
    return { prepared, plan: planned, document, code: 1 };
  }
  if (out) {
    // The folder too: apply --plan elsewhere would read other files (saved-plan.ts, checkSavedFolder).
    writeSavedPlan(resolve(host.cwd, out), { ...planDocument(prepared, versions, inputs, 'hash'), workingDirectory: host.cwd }, session.masker, out);
    const of = inputs.stack === undefined ? '' : ` (stack ${inputs.stack})`;
    session.events({ type: 'notice', message: `Saved the plan${of} to ${out}; apply it with: moor apply --plan ${out}` });
  }
  return { prepared, plan: planned, document, code: request.detailedExitcode && hasChanges(planned) ? 2 : 0 };
}
