// Critical path first: a step's priority is the longest chain of work that waits on it (itself
// included), weighted by what a step of each kind usually takes, so a long chain of dependent
// changes is never queued behind a wide set of independent ones.
import { topologicalOrder, type DependencyGraph } from '../graph.js';
import type { PlannedStep } from '../plan/steps.js';

/** Weight of a step whose kind names none: about one request's worth. */
const DEFAULT_STEP_SECONDS = 1;

export function stepWeight(step: PlannedStep): number {
  if (step.change.action === 'no-op') return 0;
  return step.kind.typicalStepSeconds ?? DEFAULT_STEP_SECONDS;
}

/** Each planned address's remaining chain: its own weight plus the heaviest chain of its dependents. */
export function criticalPathWeights(graph: DependencyGraph, steps: readonly PlannedStep[]): Map<string, number> {
  const byAddress = new Map(steps.map((s) => [s.change.address, s]));
  const weights = new Map<string, number>();
  // Dependents before what they depend on: every dependent's chain is known when its dependency is weighed.
  for (const address of topologicalOrder(graph).reverse()) {
    const step = byAddress.get(address);
    if (!step) continue;
    let heaviest = 0;
    for (const user of graph.dependentsOf(address)) heaviest = Math.max(heaviest, weights.get(user) ?? 0);
    weights.set(address, stepWeight(step) + heaviest);
  }
  for (const s of steps) if (!weights.has(s.change.address)) weights.set(s.change.address, stepWeight(s));
  return weights;
}
