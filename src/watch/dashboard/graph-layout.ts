// The dashboard's dependency graph: the manifests' graph laid out by dagre (layers, few crossings),
// so the page only draws boxes and lines. Each resource's status rides along for colour and label.
import type { Edge, EdgeLabel, GraphLabel, NodeLabel, Point } from '@dagrejs/dagre';
import type { DependencyGraph } from '../../engine/graph.js';
import type { ResourceStatus } from '../stack-status.js';
import type { GraphEdge, GraphLayout, GraphNode } from './api-types.js';

/** Past this many resources a drawing is a blur and its layout takes seconds: the page says so instead. */
export const GRAPH_LIMIT = 1500;

const NODE_HEIGHT = 44;
/** Wide enough for the address at the page's font size; long addresses are cut on the page, not here. */
const NODE_WIDTH = 230;

/** Lays out a stack's graph; dependencies are drawn left of what needs them. dagre loads on the first drawing, not with every watch. */
export async function layoutGraph(stack: string | null, graph: DependencyGraph, statuses: readonly ResourceStatus[]): Promise<GraphLayout> {
  const byAddress = new Map(statuses.map((s) => [s.address, s]));
  const nodes = graph.nodes.filter((a) => byAddress.has(a));
  if (nodes.length > GRAPH_LIMIT) {
    return { format: 'moor-dashboard-graph/1', stack, width: 0, height: 0, nodes: [], edges: [], tooLarge: { resources: nodes.length, limit: GRAPH_LIMIT } };
  }
  const { Graph, layout } = await import('@dagrejs/dagre');
  const g = new Graph<GraphLabel, NodeLabel, EdgeLabel>();
  g.setGraph({ rankdir: 'LR', nodesep: 18, ranksep: 70, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const a of nodes) g.setNode(a, { width: NODE_WIDTH, height: NODE_HEIGHT });
  const shown = new Set(nodes);
  for (const a of nodes) {
    for (const d of graph.dependenciesOf(a)) if (shown.has(d)) g.setEdge(d, a);
  }
  layout(g);
  const laidNodes: GraphNode[] = nodes.map((a) => {
    const n = g.node(a);
    const s = byAddress.get(a)!;
    return { address: a, kind: s.kind, status: s.status, x: round(n.x - n.width / 2), y: round(n.y - n.height / 2), width: n.width, height: n.height };
  });
  const edges: GraphEdge[] = g.edges().map((e: Edge) => ({
    from: e.w,
    to: e.v,
    points: (g.edge(e).points ?? []).map((p: Point) => ({ x: round(p.x), y: round(p.y) })),
  }));
  const size = g.graph();
  return { format: 'moor-dashboard-graph/1', stack, width: Math.ceil(size.width ?? 0), height: Math.ceil(size.height ?? 0), nodes: laidNodes, edges };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
