// --target ADDR: the selected manifests and, transitively, everything they depend on.
import { UserError } from '../../core/diagnostics.js';
import type { Manifest } from '../manifest.js';
import type { DependencyGraph } from '../graph.js';

export function selectTargets(manifests: readonly Manifest[], targets: readonly string[] | undefined, graph: DependencyGraph): readonly Manifest[] {
  if (!targets || targets.length === 0) return manifests;
  const known = new Set(manifests.map((m) => m.address));
  const wanted = new Set<string>();
  const visit = (a: string) => {
    if (wanted.has(a)) return;
    wanted.add(a);
    graph.dependenciesOf(a).forEach(visit);
  };
  for (const t of targets) {
    if (!known.has(t)) throw new UserError(`--target ${t}: no manifest has this address`);
    visit(t);
  }
  return manifests.filter((m) => wanted.has(m.address));
}
