// The dashboard's dependency graph: the manifests' graph laid out by dagre (layers, few crossings),
// so the page only draws boxes and lines. Each resource's status rides along for colour and label.
import type { DependencyGraph } from '../../engine/graph.js';
import type { ResourceStatus } from '../stack-status.js';
import type { GraphEdge, GraphLayout, GraphNode } from './api-types.js';

/** Past this many resources a drawing is a blur and its layout takes seconds: the page says so instead. */
export const GRAPH_LIMIT = 1500;

const NODE_HEIGHT = 44;
/** Wide enough for the address at the page's font size; long addresses are cut on the page, not here. */
const NODE_WIDTH = 230;

/** A point of an edge's line, as dagre places it. */
interface DagrePoint {
  readonly x: number;
  readonly y: number;
}

/**
 * The part of dagre's API used here. dagre 3 ships declarations, but they import their own files without
 * the .js extension, which module resolution NodeNext cannot follow: every name they export reads as an
 * unresolved type (so as `any`). This is what dagre's lib/types.d.ts and graphlib's Graph say of them.
 */
interface DagreGraph {
  setGraph(label: { rankdir: string; nodesep: number; ranksep: number; marginx: number; marginy: number }): void;
  setDefaultEdgeLabel(label: () => object): void;
  setNode(name: string, label: { width: number; height: number }): void;
  setEdge(from: string, to: string): void;
  /** After layout: the node's centre and size. */
  node(name: string): { x: number; y: number; width: number; height: number };
  edges(): { v: string; w: string }[];
  edge(edge: { v: string; w: string }): { points?: DagrePoint[] };
  graph(): { width?: number; height?: number };
}

interface Dagre {
  readonly Graph: new () => DagreGraph;
  readonly layout: (graph: DagreGraph) => void;
}

/** Lays out a stack's graph; dependencies are drawn left of what needs them. dagre loads on the first drawing, not with every watch. */
export async function layoutGraph(stack: string | null, graph: DependencyGraph, statuses: readonly ResourceStatus[]): Promise<GraphLayout> {
  const byAddress = new Map(statuses.map((s) => [s.address, s]));
  const shownStatuses = graph.nodes.flatMap((a) => byAddress.get(a) ?? []);
  if (shownStatuses.length > GRAPH_LIMIT) {
    return {
      format: 'moor-dashboard-graph/1',
      stack,
      width: 0,
      height: 0,
      nodes: [],
      edges: [],
      tooLarge: { resources: shownStatuses.length, limit: GRAPH_LIMIT },
    };
  }
  const { Graph, layout } = (await import('@dagrejs/dagre')) as unknown as Dagre;
  const g = new Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 18, ranksep: 70, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const s of shownStatuses) g.setNode(s.address, { width: NODE_WIDTH, height: NODE_HEIGHT });
  const shown = new Set(shownStatuses.map((s) => s.address));
  for (const a of shown) {
    for (const d of graph.dependenciesOf(a)) if (shown.has(d)) g.setEdge(d, a);
  }
  layout(g);
  const laidNodes: GraphNode[] = shownStatuses.map((s) => {
    const n = g.node(s.address);
    return { address: s.address, kind: s.kind, status: s.status, x: round(n.x - n.width / 2), y: round(n.y - n.height / 2), width: n.width, height: n.height };
  });
  const edges: GraphEdge[] = g.edges().map((e) => ({
    from: e.w,
    to: e.v,
    points: (g.edge(e).points ?? []).map((p) => ({ x: round(p.x), y: round(p.y) })),
  }));
  const size = g.graph();
  return { format: 'moor-dashboard-graph/1', stack, width: Math.ceil(size.width ?? 0), height: Math.ceil(size.height ?? 0), nodes: laidNodes, edges };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
