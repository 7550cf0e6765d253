// The runs of a stack, newest first, as `moor history` lists them: when, what, who, the result and each change.
import { h } from 'preact';
import htm from 'htm';
import { StackPicker, When } from './status.js';

const html = htm.bind(h);
const GLYPH = { create: '+', update: '~', replace: '-/+', delete: '-', run: '!', 'no-op': '·' };
const RESULT_STATUS = { succeeded: 'in_sync', failed: 'failed', interrupted: 'held' };

/**
 * @param {{ history: import('../../src/watch/dashboard/api-types.ts').HistoryDocument | null, stacks: string[], stack: string,
 *   onStack: (stack: string) => void, error: string | null }} props
 */
export function HistoryView({ history, stacks, stack, onStack, error }) {
  const picker = html`<${StackPicker} stacks=${stacks} stack=${stack} onStack=${onStack} />`;
  let body;
  if (error) body = html`<p role="alert">${error}</p>`;
  else if (!history) body = html`<p aria-busy="true">Loading…</p>`;
  else if (history.runs.length === 0) body = html`<p class="muted">No runs yet: history starts with the first apply.</p>`;
  else body = html`<ol class="timeline" data-testid="history">${history.runs.map(run)}</ol>`;
  return html`
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">History of runs</h2>
      <div class="toolbar">${picker}</div>
      ${body}
    </section>`;
}

function run(r) {
  const c = r.counts;
  const counts = [`${c.created} created`, `${c.updated} updated`, `${c.replaced} replaced`, `${c.deleted} deleted`, `${c.run} run`]
    .concat(c.failed ? [`${c.failed} failed`] : [], c.skipped ? [`${c.skipped} skipped`] : [])
    .join(', ');
  return html`
    <li class="run">
      <div class="run-head">
        <span class=${`badge status-${RESULT_STATUS[r.result] ?? 'held'}`}>${r.result}</span>
        <strong>${r.command}</strong> <${When} iso=${r.startedAt} /> by ${r.by}
        ${r.commit ? html` · commit <code>${r.commit.slice(0, 12)}</code>` : null}
      </div>
      <div class="muted">${counts}</div>
      <ul class="run-changes">${r.changes.map((ch) => html`<li><code>${GLYPH[ch.action] ?? '?'}</code> ${ch.address}: ${ch.result}${ch.error ? html` <span class="muted">(${ch.error})</span>` : null}</li>`)}</ul>
    </li>`;
}
