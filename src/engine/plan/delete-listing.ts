// Pruned deletes are listed in the order apply runs them: a resource's dependents (as state
// recorded them) before it, so plan, apply's printed plan and the run itself agree.
import { dependentsAmong } from '../apply/delete-order.js';
import type { PlannedStep } from './steps.js';
import { knownEntry } from '../../core/known-key.js';

/** The deletes with every dependent before what it depends on; otherwise in the order given. */
export function inDeleteOrder(deletes: readonly PlannedStep[]): PlannedStep[] {
  const dependents = dependentsAmong(deletes);
  const byAddress = new Map(deletes.map((s) => [s.change.address, s]));
  const listed = new Set<string>();
  const out: PlannedStep[] = [];
  const list = (address: string): void => {
    if (listed.has(address)) return;
    listed.add(address); // dependentsAmong leaves no cycle; marking first guards anyway
    for (const d of dependents.get(address) ?? []) list(d);
    out.push(knownEntry(byAddress, address, 'delete'));
  };
  for (const s of deletes) list(s.change.address);
  return out;
}
