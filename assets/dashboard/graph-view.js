// The dependency graph as SVG: laid out on the server (dagre), drawn here. Each box carries its
// status as a word and a glyph as well as a colour; arrows point from a dependency to what needs it.
import { h } from 'preact';
import htm from 'htm';
import { STATUSES, StackPicker } from './status.js';

const html = htm.bind(h);

/** Space between a box's edge and its labels. */
const PAD = 12;
/** The width of a character of the labels' font (12 px monospace is 0.6 em, 7.2 px; bold a little more). */
const CHAR_WIDTH = 7.5;

/** The address cut to fit its box with PAD to spare on either side. */
function shortAddress(a, width) {
  const fits = Math.max(4, Math.floor((width - 2 * PAD) / CHAR_WIDTH));
  return a.length > fits ? a.slice(0, fits - 1) + '…' : a;
}

function path(points) {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');
}

/**
 * @param {{ graph: import('../../src/watch/dashboard/api-types.ts').GraphLayout | null, stacks: string[], stack: string,
 *   onStack: (stack: string) => void, onSelect: (resource: { stack: string, address: string }) => void, error: string | null }} props
 */
export function GraphView({ graph, stacks, stack, onStack, onSelect, error }) {
  const picker = html`<${StackPicker} stacks=${stacks} stack=${stack} onStack=${onStack} />`;
  let body;
  if (error) body = html`<p role="alert">${error}</p>`;
  else if (!graph) body = html`<p aria-busy="true">Laying out the graph…</p>`;
  else if (graph.tooLarge)
    body = html`<p>This stack has ${graph.tooLarge.resources} resources, more than a drawing can show (${graph.tooLarge.limit}); the resource table and each resource's detail list its dependencies.</p>`;
  else if (graph.nodes.length === 0) body = html`<p class="muted">No resources yet.</p>`;
  else body = drawing(graph, onSelect);
  return html`
    <section aria-labelledby="graph-heading">
      <h2 id="graph-heading">Dependency graph</h2>
      <div class="toolbar">${picker}<span class="muted">Arrows point from a dependency to what needs it. Enter on a box opens its detail.</span></div>
      ${body}
    </section>`;
}

function drawing(graph, onSelect) {
  const edgesText = graph.edges.map((e) => `${e.from} depends on ${e.to}`);
  return html`
    <div class="graph-box" tabindex="0" aria-label="dependency graph, scrollable">
      <svg class="graph" width=${graph.width} height=${graph.height} viewBox=${`0 0 ${graph.width} ${graph.height}`} role="group" aria-label=${`dependency graph: ${graph.nodes.length} resources, ${graph.edges.length} dependencies`} data-testid="graph">
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" class="arrow-head" />
          </marker>
        </defs>
        ${graph.edges.map((e) => html`<path class="edge" d=${path(e.points)} marker-end="url(#arrow)" data-from=${e.from} data-to=${e.to}><title>${e.from} depends on ${e.to}</title></path>`)}
        ${graph.nodes.map((n) => {
          const s = STATUSES[n.status] ?? { label: n.status, glyph: '•' };
          return html`
            <g class=${`node status-${n.status}`} transform=${`translate(${n.x},${n.y})`} data-address=${n.address} data-status=${n.status}
               tabindex="0" role="button" aria-label=${`${n.address}: ${s.label}`}
               onClick=${() => onSelect({ stack: graph.stack ?? '', address: n.address })}
               onKeyDown=${(e) => {
                 if (e.key === 'Enter' || e.key === ' ') {
                   e.preventDefault();
                   onSelect({ stack: graph.stack ?? '', address: n.address });
                 }
               }}>
              <rect width=${n.width} height=${n.height} rx="6" />
              <text x=${PAD} y="18" class="node-address">${shortAddress(n.address, n.width)}</text>
              <text x=${PAD} y="35" class="node-status">${s.glyph} ${s.label}</text>
            </g>`;
        })}
      </svg>
    </div>
    <details class="edge-list"><summary>Dependencies as text (${edgesText.length})</summary>
      <ul>${edgesText.map((t) => html`<li>${t}</li>`)}</ul>
    </details>`;
}
