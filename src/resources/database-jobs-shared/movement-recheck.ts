// Re-checking a database-movement run whose outcome is unknown: by the status endpoint, when the operation's activity id is known.
import { isObject } from '../../core/json.js';
import type { JobRecord, KindContext } from '../../core/kind.js';

/**
 * The run made resumable (status started, its last step at the status the service reports) when
 * the service knows the operation; undefined when no activity id was recorded (the answer to the
 * send was lost) or the service cannot say. Only reads.
 */
export async function recheckMovement(ctx: KindContext, projectId: string, run: JobRecord): Promise<JobRecord | undefined> {
  if (run.outcome !== 'unknown' || !Array.isArray(run.steps)) return undefined;
  const last = run.steps.at(-1);
  if (!isObject(last) || typeof last.activityId !== 'string' || typeof last.environmentId !== 'string') return undefined;
  const status = await ctx.providers.lcs.fetchStatus(projectId, last.environmentId, last.activityId);
  if (typeof status.OperationStatus !== 'string' || status.OperationStatus === '') return undefined;
  const { outcome: _unknown, message: _message, ...rest } = run;
  const step = { ...last, status: status.OperationStatus, at: new Date().toISOString() };
  return { ...rest, status: 'started', steps: [...run.steps.slice(0, -1), step] };
}

/** A started run with a step recorded as being sent but without the activity id its answer carries: a crash lost it. */
export function sendAnswerLost(run: JobRecord): boolean {
  if (run.status !== 'started' || !Array.isArray(run.steps)) return false;
  return run.steps.some((s) => isObject(s) && (s.status === 'Sending' || typeof s.activityId !== 'string'));
}
