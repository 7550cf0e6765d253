// The replicas of moor watch sharing the stacks (PostgreSQL state): each one's heartbeat and the stacks it
// holds, as the replica serving this page saw them at its last look.
import { h } from 'preact';
import htm from 'htm';
import { When } from './status.js';

const html = htm.bind(h);

/** @param {{ fleet: import('../../src/watch/dashboard/api-types.ts').FleetDocument | undefined }} props */
export function FleetView({ fleet }) {
  if (!fleet) return null;
  const live = fleet.replicas.filter((r) => r.live).length;
  return html`
    <section aria-labelledby="fleet-heading" data-testid="fleet">
      <h2 id="fleet-heading">Replicas</h2>
      <p class="muted">${live} live ${live === 1 ? 'replica shares' : 'replicas share'} ${fleet.stacks} stacks, looked at <${When} iso=${fleet.surveyedAt} /></p>
      <table class="fleet">
        <thead><tr><th scope="col">Replica</th><th scope="col">Host</th><th scope="col">State</th><th scope="col">Heartbeat</th><th scope="col">Stacks held</th></tr></thead>
        <tbody>${fleet.replicas.map(
          (r) => html`
          <tr data-replica=${r.id}>
            <th scope="row">${r.id}${r.self ? html` <span class="muted">(this one)</span>` : null}</th>
            <td>${r.host} <span class="muted">pid ${r.pid}</span></td>
            <td><span class=${`badge status-${r.live ? 'in_sync' : 'failed'}`}>${r.live ? 'live' : 'gone'}</span></td>
            <td><${When} iso=${r.heartbeatAt} /></td>
            <td><strong>${r.holds.length}</strong>${r.holds.length ? html` <span class="muted">${r.holds.map((s) => s ?? 'manifests').join(', ')}</span>` : null}</td>
          </tr>`,
        )}</tbody>
      </table>
    </section>`;
}
