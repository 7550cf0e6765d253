// The dashboard's graph: every resource placed, dependencies drawn from the dependency to what needs it.
import { describe, expect, test } from 'vitest';
import type { DependencyGraph } from '../../engine/graph.js';
import type { ResourceStatus } from '../stack-status.js';
import { GRAPH_LIMIT, layoutGraph } from './graph-layout.js';

function graphOf(edges: Record<string, string[]>): DependencyGraph {
  const nodes = Object.keys(edges).sort();
  return {
    nodes,
    dependenciesOf: (a) => edges[a] ?? [],
    dependentsOf: (a) => nodes.filter((n) => edges[n].includes(a)),
  };
}

const status = (address: string, s: ResourceStatus['status'] = 'in_sync'): ResourceStatus => ({ address, kind: address.split('/')[0], status: s });

describe('layoutGraph', () => {
  test('places every resource with its status and draws each dependency left to right', async () => {
    const g = graphOf({ 'AuthContext/c1': [], 'ContainerGroup/web': ['AuthContext/c1'] });
    const laid = await layoutGraph('prod', g, [status('AuthContext/c1'), status('ContainerGroup/web', 'drifted')]);
    expect(laid.nodes.map((n) => [n.address, n.status])).toEqual([
      ['AuthContext/c1', 'in_sync'],
      ['ContainerGroup/web', 'drifted'],
    ]);
    expect(laid.edges.map((e) => [e.from, e.to])).toEqual([['ContainerGroup/web', 'AuthContext/c1']]);
    const [dep, user] = laid.nodes;
    expect(dep.x + dep.width).toBeLessThan(user.x);
    expect(laid.edges[0].points.length).toBeGreaterThanOrEqual(2);
    expect(laid.width).toBeGreaterThanOrEqual(user.x + user.width);
  });

  test('does not lay out a stack larger than a drawing can show', async () => {
    const edges: Record<string, string[]> = {};
    for (let i = 0; i <= GRAPH_LIMIT; i++) edges[`AuthContext/c${i}`] = [];
    const laid = await layoutGraph(
      null,
      graphOf(edges),
      Object.keys(edges).map((a) => status(a)),
    );
    expect(laid.tooLarge).toEqual({ resources: GRAPH_LIMIT + 1, limit: GRAPH_LIMIT });
    expect(laid.nodes).toEqual([]);
  });
});
