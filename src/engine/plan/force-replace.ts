// --replace ADDR: force a -/+ of a resource whose plan would otherwise update it or leave it
// alone (Terraform's -replace). Refused for a protected resource like any other replace.
import { UserError, type Diagnostic } from '../../core/diagnostics.js';
import { summarize, type PlannedChange } from './types.js';
import type { PlanResult } from './planner.js';
import { protectedChangeError } from './protected-change.js';
import { withReason } from './reasons.js';
import type { PlannedStep, ReplaceStep } from './steps.js';

export function forceReplace<T extends Pick<PlanResult, 'plan' | 'steps'>>(
  result: T,
  addresses: readonly string[],
): Omit<T, 'plan' | 'steps'> & Pick<PlanResult, 'plan' | 'steps'> {
  if (addresses.length === 0) return result;
  const wanted = new Set(addresses);
  const byAddress = new Map(result.steps.map((s) => [s.change.address, s]));
  for (const a of wanted) {
    const step = byAddress.get(a);
    if (!step?.manifest) throw new UserError(`--replace ${a}: no manifest in this plan has this address${step ? ' (it is being deleted)' : ''}`);
    if (step.kind.category !== 'resource') throw new UserError(`--replace ${a}: only resources can be replaced (a job runs again when its revision changes)`);
  }
  const diagnostics: Diagnostic[] = [...result.plan.diagnostics];
  const steps = result.steps.map((step): PlannedStep => {
    if (!wanted.has(step.change.address)) return step;
    const next = forcedReplace(step);
    if (!next) return step;
    const refused = protectedChangeError(next);
    if (refused) diagnostics.push(refused);
    return next;
  });
  const changes = steps.map((s) => s.change);
  return { ...result, steps, plan: { ...result.plan, changes, summary: summarize(changes), diagnostics } };
}

/** The replace of a live resource that would be updated or left alone; undefined for any other step. */
function forcedReplace(step: PlannedStep): ReplaceStep | undefined {
  if (step.intent !== 'update' && step.intent !== 'no-op' && step.intent !== 'settle') return undefined;
  const { kind, manifest, desired, observed, record, change } = step;
  if (kind.category !== 'resource' || !observed) return undefined;
  const forced: PlannedChange = {
    ...withReason(change, { code: 'forced-replace', text: 'replace forced by --replace' }),
    action: 'replace',
    destructive: kind.resource.replaceIsDestructive === true,
  };
  return { intent: 'replace', kind, manifest, desired, observed, record, change: forced };
}
