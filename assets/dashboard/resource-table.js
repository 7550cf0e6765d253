// Every resource of every stack in one table, filtered and searched, drawing only the rows in view
// (a fixed row height and two spacer rows), so 10,000 rows scroll as smoothly as 10.
import { h } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { plural, STATUSES, StatusBadge, When } from './status.js';

const html = htm.bind(h);
const ROW_HEIGHT = 36;
const OVERSCAN = 8;

export function ResourceTable({ rows, stacks, selected, onSelect }) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [stack, setStack] = useState('');
  const [kind, setKind] = useState('');
  const kinds = useMemo(() => [...new Set(rows.map((r) => r.kind))].sort(), [rows]);
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return rows.filter(
      (r) =>
        (!status || r.status === status) &&
        (!stack || r.stack === stack) &&
        (!kind || r.kind === kind) &&
        (!needle || r.address.toLowerCase().includes(needle) || (r.detail ?? '').toLowerCase().includes(needle)),
    );
  }, [rows, search, status, stack, kind]);

  return html`
    <section class="resources" aria-labelledby="resources-heading">
      <h2 id="resources-heading">Resources</h2>
      <div class="toolbar" role="search">
        <label>Search <input type="search" value=${search} onInput=${(e) => setSearch(e.currentTarget.value)} placeholder="address or message" /></label>
        <label>Status
          <select value=${status} onChange=${(e) => setStatus(e.currentTarget.value)}>
            <option value="">any</option>
            ${Object.entries(STATUSES).map(([k, v]) => html`<option value=${k}>${v.label}</option>`)}
          </select>
        </label>
        ${
          stacks.length > 1
            ? html`<label>Stack
          <select value=${stack} onChange=${(e) => setStack(e.currentTarget.value)}>
            <option value="">all</option>
            ${stacks.map((s) => html`<option value=${s}>${s}</option>`)}
          </select></label>`
            : null
        }
        <label>Kind
          <select value=${kind} onChange=${(e) => setKind(e.currentTarget.value)}>
            <option value="">any</option>
            ${kinds.map((k) => html`<option value=${k}>${k}</option>`)}
          </select>
        </label>
        <span class="count" aria-live="polite" data-testid="row-count">${shown.length === rows.length ? plural(rows.length, 'resource') : `${shown.length} of ${plural(rows.length, 'resource')}`}</span>
      </div>
      <${VirtualRows} rows=${shown} multiStack=${stacks.length > 1} selected=${selected} onSelect=${onSelect} />
    </section>`;
}

function VirtualRows({ rows, multiStack, selected, onSelect }) {
  const box = useRef(/** @type {HTMLElement | null} */ (null));
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const el = /** @type {HTMLElement} */ (box.current);
    const measure = () => setHeight(el.clientHeight || 600);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  const visible = rows.slice(first, last);
  const columns = multiStack ? 5 : 4;
  return html`
    <div class="table-box" ref=${box} tabindex="0" aria-label="resource table, scrollable" onScroll=${(e) => setScrollTop(e.currentTarget.scrollTop)}>
      <table class="resource-table" aria-rowcount=${rows.length + 1}>
        <thead><tr>
          ${multiStack ? html`<th scope="col" class="col-stack">Stack</th>` : null}
          <th scope="col" class="col-address">Address</th><th scope="col" class="col-kind">Kind</th><th scope="col" class="col-status">Status</th><th scope="col" class="col-when">Last change</th>
        </tr></thead>
        <tbody>
          ${first > 0 ? html`<tr class="spacer" aria-hidden="true"><td colspan=${columns} style=${{ height: `${first * ROW_HEIGHT}px` }}></td></tr>` : null}
          ${visible.map(
            (r, i) => html`
            <tr key=${r.key} data-address=${r.address} data-stack=${r.stack} data-status=${r.status} aria-rowindex=${first + i + 2}
                class=${selected === r.key ? 'selected' : ''}>
              ${multiStack ? html`<td>${r.stack}</td>` : null}
              <td class="address"><button type="button" class="link" onClick=${() => onSelect(r)} aria-label=${`${r.address}${multiStack ? ` in ${r.stack}` : ''}: show detail`}>${r.address}</button></td>
              <td>${r.kind}</td>
              <td><${StatusBadge} status=${r.status} />${r.detail ? html` <span class="row-detail" title=${r.detail}>${r.detail}</span>` : null}</td>
              <td><${When} iso=${r.changedAt} /></td>
            </tr>`,
          )}
          ${last < rows.length ? html`<tr class="spacer" aria-hidden="true"><td colspan=${columns} style=${{ height: `${(rows.length - last) * ROW_HEIGHT}px` }}></td></tr>` : null}
        </tbody>
      </table>
      ${rows.length === 0 ? html`<p class="empty">No resource matches.</p>` : null}
    </div>`;
}
