// The dependency graph of a manifest set: edges from metadata.dependsOn and `${ref:}` placeholders.
import type { Address, Manifest } from './manifest.js';
import { refTargets } from './validate/ref-targets.js';

export interface DependencyGraph {
  /** Every address, sorted. */
  readonly nodes: readonly Address[];
  /** What `a` needs applied first (sorted). */
  dependenciesOf(a: Address): readonly Address[];
  /** What needs `a` applied first (sorted). */
  dependentsOf(a: Address): readonly Address[];
}

/** What a manifest names as its dependencies (dependsOn and `${ref:}` targets), unique and sorted. */
export function declaredDependencies(manifest: Manifest): Address[] {
  return [...new Set([...manifest.dependsOn, ...refTargets(manifest.spec).map((r) => r.address)])].sort();
}

/** Builds the graph; edges to addresses not in the set are left out (validation reports them). */
export function buildGraph(manifests: readonly Manifest[]): DependencyGraph {
  const nodes = [...new Set(manifests.map((m) => m.address))].sort();
  const known = new Set(nodes);
  const deps = new Map<Address, Set<Address>>(nodes.map((n) => [n, new Set()]));
  const users = new Map<Address, Set<Address>>(nodes.map((n) => [n, new Set()]));
  for (const m of manifests) {
    for (const t of declaredDependencies(m)) {
      if (!known.has(t)) continue;
      deps.get(m.address)?.add(t);
      users.get(t)?.add(m.address);
    }
  }
  const sorted = (map: Map<Address, Set<Address>>) => new Map([...map].map(([k, v]) => [k, [...v].sort()]));
  const depList = sorted(deps);
  const userList = sorted(users);
  return {
    nodes,
    dependenciesOf: (a) => depList.get(a) ?? [],
    dependentsOf: (a) => userList.get(a) ?? [],
  };
}

/** A cycle as a path that ends where it starts (A -> B -> A), or undefined. Iterative: no stack limits. */
export function findCycle(graph: DependencyGraph): Address[] | undefined {
  const state = new Map<Address, 'open' | 'done'>();
  for (const start of graph.nodes) {
    if (state.has(start)) continue;
    const stack: { node: Address; next: number }[] = [{ node: start, next: 0 }];
    state.set(start, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const deps = graph.dependenciesOf(top.node);
      if (top.next >= deps.length) {
        state.set(top.node, 'done');
        stack.pop();
        continue;
      }
      const dep = deps[top.next++];
      const seen = state.get(dep);
      if (seen === 'open') {
        const from = stack.findIndex((f) => f.node === dep);
        return [...stack.slice(from).map((f) => f.node), dep];
      }
      if (!seen) {
        state.set(dep, 'open');
        stack.push({ node: dep, next: 0 });
      }
    }
  }
  return undefined;
}

/**
 * Dependencies before dependents, in waves: each wave holds what is ready once the earlier
 * waves are done, sorted by address so the order is stable. Nodes caught in a cycle cannot
 * be ordered: they come last, sorted.
 */
export function topologicalOrder(graph: DependencyGraph): Address[] {
  const waiting = new Map(graph.nodes.map((n) => [n, graph.dependenciesOf(n).length]));
  let wave = graph.nodes.filter((n) => waiting.get(n) === 0);
  const order: Address[] = [];
  while (wave.length > 0) {
    wave.sort();
    order.push(...wave);
    const next: Address[] = [];
    for (const n of wave) {
      for (const user of graph.dependentsOf(n)) {
        const left = (waiting.get(user) ?? 0) - 1;
        waiting.set(user, left);
        if (left === 0) next.push(user);
      }
    }
    wave = next;
  }
  const placed = new Set(order);
  return [...order, ...graph.nodes.filter((n) => !placed.has(n))];
}
