// One resource: its status, the change as `moor plan` prints it (the server renders it with plan's own
// renderer; sensitive values arrive as "(sensitive)"), its outputs, and what it depends on.
import { h } from 'preact';
import htm from 'htm';
import { StatusBadge, When } from './status.js';

const html = htm.bind(h);

/** A diff line's kind from its leading glyph, for its colour (the glyph itself stays visible). */
function lineClass(line) {
  const m = /^\s*(-\/\+|[+~!-])\s/.exec(line);
  if (!m) return 'diff-note';
  return { '+': 'diff-add', '-': 'diff-remove', '~': 'diff-change', '-/+': 'diff-replace', '!': 'diff-run' }[m[1]];
}

/**
 * @param {{ detail: import('../../src/watch/dashboard/api-types.ts').ResourceDetail | null, error: string | null,
 *   onClose: () => void, onSelect: (resource: { stack: string, address: string }) => void }} props
 */
export function ResourceDetail({ detail, error, onClose, onSelect }) {
  if (error)
    return html`<aside class="detail" aria-label="Resource detail"><p role="alert">${error}</p><button type="button" onClick=${onClose}>Close</button></aside>`;
  if (!detail) return html`<aside class="detail" aria-label="Resource detail" aria-busy="true"><p>Loading…</p></aside>`;
  const r = detail.resource;
  const stack = detail.stack ?? '';
  return html`
    <aside class="detail" aria-labelledby="detail-heading" data-testid="resource-detail">
      <div class="detail-head">
        <h2 id="detail-heading" tabindex="-1">${r.address}</h2>
        <button type="button" onClick=${onClose} aria-label="Close the detail">Close</button>
      </div>
      <dl class="facts">
        ${detail.stack ? html`<dt>Stack</dt><dd>${detail.stack}</dd>` : null}
        <dt>Kind</dt><dd>${r.kind}</dd>
        <dt>Status</dt><dd><${StatusBadge} status=${r.status} /></dd>
        <dt>Planned</dt><dd>${detail.action}${detail.drift ? ' (live drifted from the last apply)' : ''}</dd>
        <dt>Last change</dt><dd><${When} iso=${r.changedAt} /></dd>
        ${r.detail ? html`<dt>Note</dt><dd>${r.detail}</dd>` : null}
      </dl>
      <h3>Changes, as plan prints them</h3>
      ${
        detail.diff.length === 0
          ? html`<p class="muted">No change: live matches the manifest.</p>`
          : html`<pre class="diff" data-testid="diff">${detail.diff.map((line) => html`<span class=${lineClass(line)}>${line + '\n'}</span>`)}</pre>`
      }
      ${detail.answers ? html`<${Answers} answers=${detail.answers} />` : null}
      <h3>Depends on</h3>
      ${links(detail.dependsOn, stack, onSelect)}
      <h3>Needed by</h3>
      ${links(detail.dependents, stack, onSelect)}
      <h3>Outputs</h3>
      ${detail.outputs === null ? html`<p class="muted">Not applied yet.</p>` : html`<pre class="outputs" data-testid="outputs" tabindex="0" aria-label="outputs, scrollable">${JSON.stringify(detail.outputs, null, 2)}</pre>`}
    </aside>`;
}

function links(addresses, stack, onSelect) {
  if (addresses.length === 0) return html`<p class="muted">nothing</p>`;
  return html`<ul class="links">${addresses.map((a) => html`<li><button type="button" class="link" onClick=${() => onSelect({ stack, address: a })}>${a}</button></li>`)}</ul>`;
}

/** A drifted resource's three answers, each a command (or a manifest line) to copy. */
function Answers({ answers }) {
  const rows = [
    ['Accept', 'write the live values into the manifest files that set them', answers.accept],
    ['Revert', "put the manifest's values back", answers.revert],
    ['Ignore', "add to the manifest's metadata: another system owns these fields", answers.ignore],
  ];
  return html`
    <h3>Drifted: accept, revert or ignore</h3>
    <dl class="answers" data-testid="drift-answers">
      ${rows.map(
        ([name, what, command]) => html`
        <dt>${name} <span class="muted">(${what})</span></dt>
        <dd><code data-testid=${`answer-${name.toLowerCase()}`}>${command}</code>
          <button type="button" class="link" aria-label=${`Copy the ${name.toLowerCase()} command`} onClick=${() => navigator.clipboard?.writeText(command)}>Copy</button></dd>`,
      )}
    </dl>`;
}
