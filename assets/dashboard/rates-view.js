// Requests and throttling per service, from the watch's own counters (what /metrics exports).
import { h } from 'preact';
import htm from 'htm';

const html = htm.bind(h);
const perMinute = (v) => (v === null ? '—' : v.toFixed(1));

/** @param {{ rates: import('../../src/watch/dashboard/api-types.ts').RatesDocument | null, error: string | null }} props */
export function RatesView({ rates, error }) {
  let body;
  if (error) body = html`<p role="alert">${error}</p>`;
  else if (!rates) body = html`<p aria-busy="true">Loading…</p>`;
  else if (rates.services.length === 0) body = html`<p class="muted">No request has been answered yet.</p>`;
  else
    body = html`
    <table class="rates" data-testid="rates">
      <caption>Per service since the watch started; per minute over the last ${Math.round(rates.windowSeconds / 60)} minutes</caption>
      <thead><tr><th scope="col">Service</th><th scope="col">Requests</th><th scope="col">Requests / min</th><th scope="col">Throttled (429)</th><th scope="col">Throttled / min</th><th scope="col">Waited out throttling</th><th scope="col">Retries</th></tr></thead>
      <tbody>${rates.services.map(
        (s) => html`
        <tr data-service=${s.service}>
          <th scope="row">${s.service}</th><td>${s.requests}</td><td>${perMinute(s.requestsPerMinute)}</td>
          <td>${s.throttled > 0 ? html`<strong>${s.throttled}</strong>` : '0'}</td><td>${perMinute(s.throttledPerMinute)}</td>
          <td>${s.throttleWaitSeconds.toFixed(1)} s</td><td>${s.retries}</td>
        </tr>`,
      )}</tbody>
    </table>`;
  return html`<section aria-labelledby="rates-heading"><h2 id="rates-heading">Requests and throttling</h2>${body}</section>`;
}
