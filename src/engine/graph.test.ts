// The dependency graph: edges from dependsOn and ${ref:}, cycles with their path, a stable order.
import { describe, expect, test } from 'vitest';
import type { JsonObject } from '../core/json.js';
import type { Manifest } from './manifest.js';
import { buildGraph, findCycle, topologicalOrder } from './graph.js';

function manifest(address: string, dependsOn: string[] = [], spec: JsonObject = {}): Manifest {
  const [kind, name] = address.split('/');
  return {
    apiVersion: 'moor/v1',
    kind,
    name,
    address,
    dependsOn,
    protect: false,
    spec,
    source: { file: 'm.yaml', path: '/m.yaml', locate: () => ({ file: 'm.yaml', line: 1, col: 1 }) },
  };
}

describe('buildGraph', () => {
  test('edges come from dependsOn and from ${ref:} anywhere in the spec', () => {
    const g = buildGraph([
      manifest('ContainerGroup/web', ['AuthContext/c1'], { properties: { env: [{ value: 'id=${ref:PushDataset/sales#/id}' }] } }),
      manifest('AuthContext/c1'),
      manifest('PushDataset/sales'),
    ]);
    expect(g.nodes).toEqual(['AuthContext/c1', 'ContainerGroup/web', 'PushDataset/sales']);
    expect(g.dependenciesOf('ContainerGroup/web')).toEqual(['AuthContext/c1', 'PushDataset/sales']);
    expect(g.dependentsOf('AuthContext/c1')).toEqual(['ContainerGroup/web']);
  });

  test('edges to unknown addresses are left out (validation reports them)', () => {
    const g = buildGraph([manifest('AuthContext/c1', ['AuthContext/c9'])]);
    expect(g.dependenciesOf('AuthContext/c1')).toEqual([]);
  });
});

describe('findCycle', () => {
  test('returns the path of a cycle, ending where it starts', () => {
    const g = buildGraph([manifest('Check/a', ['Check/b']), manifest('Check/b', ['Check/c']), manifest('Check/c', ['Check/b'])]);
    expect(findCycle(g)).toEqual(['Check/b', 'Check/c', 'Check/b']);
  });

  test('returns undefined for an acyclic graph, even a 10,000-long chain', () => {
    const chain = Array.from({ length: 10_000 }, (_, i) => manifest(`Check/n${i}`, i > 0 ? [`Check/n${i - 1}`] : []));
    expect(findCycle(buildGraph(chain))).toBeUndefined();
  });
});

describe('topologicalOrder', () => {
  test('puts dependencies first, ties in address order', () => {
    const g = buildGraph([manifest('Check/z'), manifest('Check/b', ['Check/z']), manifest('Check/a', ['Check/z'])]);
    expect(topologicalOrder(g)).toEqual(['Check/z', 'Check/a', 'Check/b']);
  });

  test('puts nodes caught in a cycle last', () => {
    const g = buildGraph([manifest('Check/a', ['Check/b']), manifest('Check/b', ['Check/a']), manifest('Check/c')]);
    expect(topologicalOrder(g)).toEqual(['Check/c', 'Check/a', 'Check/b']);
  });
});
