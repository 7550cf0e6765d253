// The guard's word on a plan (policies): its findings on each change join the plan's diagnostics;
// a change with an error finding is refused — shown, marked, and failed by apply, which skips what
// depends on it and carries out the rest.
import type { GuardContext, PreparedGuard } from '../guard.js';
import type { PlanResult } from './planner.js';
import type { PlannedChange } from './types.js';
import { refusedStep, type PlannedStep } from './steps.js';
import { withReason } from './reasons.js';

export async function reviewPlan(result: PlanResult, guard: PreparedGuard, context: GuardContext): Promise<PlanResult> {
  const findings = await guard.checkChanges(result.steps, context);
  if (findings.length === 0) return result;
  const refusals = new Map<string, string[]>();
  for (const d of findings) {
    if (d.severity !== 'error' || d.address === undefined) continue;
    refusals.set(d.address, [...(refusals.get(d.address) ?? []), d.message]);
  }
  const held = heldBack([...refusals.keys()], result);
  const steps = result.steps.map((s): PlannedStep => {
    const address = s.change.address;
    const refused = refusals.get(address);
    if (refused) {
      const why = `refused by ${refused.join('; ')}`;
      return refusedStep(s, withReason(s.change, { code: 'policy-refused', text: why }), why);
    }
    const root = held.get(address);
    if (root === undefined || s.change.action === 'no-op') return s;
    return {
      ...s,
      change: { ...withReason(s.change, { code: 'held-back', text: `skipped: it depends on ${root}, which a policy refuses` }), heldBackBy: root },
    };
  });
  const byAddress = new Map<string, PlannedChange>(steps.map((s) => [s.change.address, s.change]));
  const changes = result.plan.changes.map((c) => byAddress.get(c.address) ?? c);
  return { ...result, steps, plan: { ...result.plan, changes, diagnostics: [...result.plan.diagnostics, ...findings] } };
}

/** What depends on a refused change (directly or through others) -> the refused change it waits for. */
function heldBack(roots: readonly string[], result: PlanResult): Map<string, string> {
  const held = new Map<string, string>();
  for (const root of roots) {
    const queue = [...result.graph.dependentsOf(root)];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (held.has(next) || roots.includes(next)) continue;
      held.set(next, root);
      queue.push(...result.graph.dependentsOf(next));
    }
  }
  return held;
}
