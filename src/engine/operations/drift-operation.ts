// moor drift as an operation: plan, keep only what moved live, send it as `plan_ready` (mode
// drift), notify. State is read under the lock, released before the notification is sent. Exit 0 none, 2 drift, 1 errors.
import { hasErrors } from '../../core/diagnostics.js';
import type { Plan } from '../plan/types.js';
import type { Session } from '../session.js';
import { driftReport, preparePlan } from '../workflow.js';
import { stackOf, type OperationHost } from './operation-host.js';
import { requireNotifyTarget, type Notifier } from './notifier.js';
import { underStateLock, type LockRequest } from './state-lock.js';
import { converse, type Tell } from './conversation.js';

export interface DriftOperationRequest {
  readonly paths: readonly string[];
  readonly notify?: Notifier;
  /** State is read under the lock, as plan reads it (default: fail at once when another run holds it). */
  readonly lock?: LockRequest;
}

export interface DriftOperationResult {
  readonly drift: Plan;
  readonly code: number;
}

export async function drift(session: Session, request: DriftOperationRequest, host: OperationHost): Promise<DriftOperationResult> {
  return converse(session, host, 'drift', (tell) => checking(session, request, host, tell));
}

async function checking(session: Session, request: DriftOperationRequest, host: OperationHost, tell: Tell): Promise<DriftOperationResult> {
  requireNotifyTarget(session, request.notify);
  const prepared = await underStateLock(session, 'moor drift', request.lock ?? { timeoutMs: 0 }, () =>
    preparePlan(session, { paths: request.paths, cwd: host.cwd, env: host.env }),
  );
  const report = driftReport(prepared, session.backend.location);
  await tell({ type: 'plan_ready', mode: 'drift', plan: report, ...stackOf(session) });
  await request.notify?.('drift', report);
  return { drift: report, code: hasErrors(report.diagnostics) ? 1 : report.changes.length > 0 ? 2 : 0 };
}
