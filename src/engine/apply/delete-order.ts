// Pruned deletes in reverse dependency order: a resource is deleted only once everything that
// depended on it (as state recorded) is gone, so nothing is left pointing at a deleted resource.
import type { PlannedStep } from '../plan/steps.js';
import type { StepOutcome } from '../../core/events.js';
import { walkGraph } from './graph-walk.js';
import { knownEntry } from '../../core/known-key.js';

/**
 * Runs the deletes, each after the deletes of its dependents among them; independent ones run
 * together, at most `limit` at once. A dependent whose delete failed or was skipped keeps what it
 * depends on (skipped).
 */
export function runDeletesInOrder(
  deletes: readonly PlannedStep[],
  run: (step: PlannedStep) => Promise<StepOutcome>,
  report: (o: StepOutcome) => StepOutcome,
  limit: number,
): Promise<StepOutcome[]> {
  const dependents = dependentsAmong(deletes);
  const byAddress = new Map(deletes.map((s) => [s.change.address, s]));
  return walkGraph({
    addresses: deletes.map((s) => s.change.address),
    waitsOn: (address) => dependents.get(address) ?? [],
    priority: () => 0,
    limit,
    run: (address) => run(knownEntry(byAddress, address, 'step')),
    blocks: (o) => o.status !== 'done',
    skip: (address, blocker) =>
      report({ address, action: knownEntry(byAddress, address, 'step').change.action, status: 'skipped', rootCause: blocker.rootCause ?? blocker.address }),
  });
}

/**
 * For each address being deleted, the other deleted addresses whose records name it as a
 * dependency. Records of different applies could disagree into a cycle: an edge that would close
 * one is left out, so every delete still runs.
 */
export function dependentsAmong(deletes: readonly PlannedStep[]): Map<string, string[]> {
  const addresses = new Set(deletes.map((s) => s.change.address));
  const edges = new Map<string, string[]>([...addresses].map((a) => [a, []]));
  for (const s of [...deletes].sort((a, b) => a.change.address.localeCompare(b.change.address))) {
    for (const dependency of s.record?.dependsOn ?? []) {
      if (!addresses.has(dependency) || dependency === s.change.address) continue;
      // `dependency` waits for `s`; refuse the edge if `s` already (transitively) waits for `dependency`.
      if (waitsFor(edges, s.change.address, dependency)) continue;
      knownEntry(edges, dependency, 'delete').push(s.change.address);
    }
  }
  return edges;
}

function waitsFor(edges: ReadonlyMap<string, readonly string[]>, from: string, target: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  for (let a = stack.pop(); a !== undefined; a = stack.pop()) {
    if (a === target) return true;
    if (seen.has(a)) continue;
    seen.add(a);
    stack.push(...(edges.get(a) ?? []));
  }
  return false;
}
