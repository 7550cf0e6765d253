// Jobs whose outcome is unknown (the answer to their request was lost): they block their dependents,
// keep plan and drift failing, and are re-checked with the service or resolved by the user.
import { isUserFailure, type Diagnostic } from '../../core/diagnostics.js';
import type { JsonObject } from '../../core/json.js';
import type { DependencyGraph } from '../graph.js';
import type { Manifest } from '../manifest.js';
import { holdsDependents, type PlannedStep } from './steps.js';
import type { JobHandler, JobRecord, KindContext } from '../../core/kind.js';
import { isGuardFinding } from '../guard.js';
import { withReason } from './reasons.js';

/** The code of the diagnostic an unknown outcome raises: an error that blocks dependents, not the whole apply. */
export const UNKNOWN_OUTCOME = 'unknown-outcome';

/** How the user resolved a run (`moor state resolve`), as kept in the run's record. */
export type Resolution = 'succeeded' | 'failed';

export function isUnknown(run: JobRecord | undefined): boolean {
  return run?.outcome === 'unknown';
}

/** The user said this run failed (or never happened): the next apply runs the revision again. */
export function resolvedAsFailed(run: JobRecord | undefined): boolean {
  return run?.status === 'failed' && run.resolved === 'failed';
}

/**
 * Errors that refuse an apply as a whole: every error but an unknown outcome and a policy's
 * finding, which refuse only their own change and what depends on it.
 */
export function blockingErrors(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 'error' && d.code !== UNKNOWN_OUTCOME && !isGuardFinding(d));
}

/** Asks the service through the kind (a read); undefined when it cannot tell or the read fails. */
export async function recheckUnknown(job: JobHandler, ctx: KindContext, spec: JsonObject, run: JobRecord): Promise<JobRecord | undefined> {
  if (!job.recheck) return undefined;
  try {
    return await job.recheck(ctx, spec, run);
  } catch (err) {
    if (!isUserFailure(err)) throw err; // a bug, not a service that cannot tell
    // A failed re-check leaves the outcome unknown; the diagnostic says how to resolve it.
    return undefined;
  }
}

/** What apply reports for the job itself while its outcome stays unknown (the summary names the address). */
export function unresolvedMessage(address: string, revision: string): string {
  return (
    `the outcome of revision ${revision} is unknown, so what depends on it was skipped; ` +
    `once you know, run 'moor state resolve ${address} --succeeded' (it happened) or '--failed' (it did not: the next apply runs it again)`
  );
}

/** The error shown by plan, drift and apply while the outcome stays unknown. */
export function unknownOutcomeDiagnostic(manifest: Manifest, revision: string, run: JobRecord): Diagnostic {
  const why = typeof run.message === 'string' ? `: ${run.message.replace(/\.$/, '')}` : ' (the answer to its request was lost in a crash)';
  return {
    severity: 'error',
    code: UNKNOWN_OUTCOME,
    address: manifest.address,
    location: manifest.source.locate(['spec', 'revision']),
    message:
      `${manifest.address}: the outcome of revision ${revision} is unknown and the service cannot tell${why}. ` +
      `What depends on it is skipped until it is resolved: check the service, then run 'moor state resolve ${manifest.address} --succeeded' (it happened) ` +
      `or '--failed' (it did not: the next apply runs it again)`,
  };
}

/**
 * Says in the plan which changes wait for an unresolved step (directly or through others): apply
 * skips them. Costs nothing when no step is unresolved.
 */
export function noteBlockedDependents(steps: PlannedStep[], graph: DependencyGraph): void {
  const unresolved = steps.filter((s) => holdsDependents(s) !== undefined).map((s) => s.change.address);
  if (unresolved.length === 0) return;
  const blockedBy = new Map<string, string>();
  for (const root of unresolved) {
    const queue = [...graph.dependentsOf(root)];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (blockedBy.has(next)) continue;
      blockedBy.set(next, root);
      queue.push(...graph.dependentsOf(next));
    }
  }
  for (const [i, s] of steps.entries()) {
    const root = blockedBy.get(s.change.address);
    if (!root || s.change.action === 'no-op' || s.intent === 'unresolved') continue;
    const waitsFor =
      steps.find((r) => r.change.address === root)?.intent === 'blocks'
        ? `${root} runs successfully (change its revision)`
        : `the outcome of ${root} is resolved`;
    steps[i] = { ...s, change: { ...withReason(s.change, { code: 'held-back', text: `skipped until ${waitsFor}` }), heldBackBy: root } };
  }
}

/** The run as the user resolved it: the unknown mark removed, the resolution and its time recorded. */
export function resolveRun(run: JobRecord, as: Resolution, at: Date = new Date()): JobRecord {
  const { outcome: _unknown, ...rest } = run;
  return { ...rest, status: as, resolved: as, resolvedAt: at.toISOString() };
}
