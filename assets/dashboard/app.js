// The dashboard of moor watch: stacks and their health, every resource with its status, a resource's
// diff, the dependency graph, the history of runs and request rates, kept live by the watch's event stream.
import { h, render } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { adoptTokenFromFragment, followEvents, getJson, setToken, Unauthorized } from './api.js';
import { ResourceTable } from './resource-table.js';
import { ResourceDetail } from './resource-detail.js';
import { GraphView } from './graph-view.js';
import { HistoryView } from './history-view.js';
import { RatesView } from './rates-view.js';
import { FleetView } from './fleet-view.js';
import { RESULTS, When } from './status.js';

const html = htm.bind(h);

adoptTokenFromFragment();
// The first status is asked for before anything is drawn: it is most of what the page waits for.
let early = getJson('/api/status');
early.catch(() => undefined);
function loadStatus() {
  const answer = early ?? getJson('/api/status');
  early = undefined;
  return answer;
}

const VIEWS = [['resources', 'Resources'], ['graph', 'Graph'], ['history', 'History'], ['rates', 'Rates']];

function viewFromHash() {
  const v = /^#\/(\w+)/.exec(location.hash)?.[1];
  return VIEWS.some(([id]) => id === v) ? v : 'resources';
}

/** One row per resource of every stack; `key` tells two stacks' resources of one address apart. */
function flatten(status, steps) {
  const rows = [];
  for (const s of status.stacks) {
    const stack = s.stack ?? '';
    for (const r of s.resources) {
      const key = `${stack}\u0000${r.address}`;
      rows.push({ ...r, stack, key, ...(steps.has(key) ? { status: 'in_progress' } : {}) });
    }
  }
  return rows;
}

function App() {
  const [view, setView] = useState(viewFromHash());
  const [status, setStatus] = useState(null);
  const [error, setError] = useState(null);
  const [needToken, setNeedToken] = useState(false);
  const [connection, setConnection] = useState('connecting');
  const [steps, setSteps] = useState(new Map());
  const [selected, setSelected] = useState(null);
  const [detail, setDetail] = useState({ doc: null, error: null });
  const [graphStack, setGraphStack] = useState(null);
  const [graph, setGraph] = useState({ doc: null, error: null });
  const [history, setHistory] = useState({ doc: null, error: null });
  const [rates, setRates] = useState({ doc: null, error: null });
  const [revision, setRevision] = useState(0);

  const stacks = useMemo(() => (status ? status.stacks.map((s) => s.stack ?? '') : []), [status]);
  const rows = useMemo(() => (status ? flatten(status, steps) : []), [status, steps]);
  const shownStack = graphStack ?? stacks[0] ?? '';

  const guard = useCallback(async (load, set) => {
    try {
      set({ doc: await load(), error: null });
    } catch (err) {
      if (err instanceof Unauthorized) setNeedToken(true);
      else set((old) => ({ doc: old.doc, error: err.message }));
    }
  }, []);

  useEffect(() => {
    const onHash = () => setView(viewFromHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  // The statuses: now, and again after every cycle the live stream tells of.
  useEffect(() => {
    if (needToken) return;
    loadStatus().then((doc) => { setStatus(doc); setError(null); setSteps(new Map()); })
      .catch((err) => (err instanceof Unauthorized ? setNeedToken(true) : setError(err.message)));
  }, [revision, needToken]);

  const pending = useRef(undefined);
  useEffect(() => {
    if (needToken) return undefined;
    return followEvents((type, data) => {
      if (type === 'cycle') {
        // Stacks finishing together make one reload.
        clearTimeout(pending.current);
        pending.current = setTimeout(() => setRevision((r) => r + 1), 150);
      } else if (type === 'step') {
        const key = `${data.stack ?? ''}\u0000${data.address}`;
        setSteps((old) => {
          const next = new Map(old);
          if (data.phase === 'started') next.set(key, true);
          else next.delete(key);
          return next;
        });
      }
    }, (state) => (state === 'unauthorized' ? setNeedToken(true) : setConnection(state)));
  }, [needToken]);

  useEffect(() => {
    if (!selected || needToken) return;
    const q = new URLSearchParams({ stack: selected.stack, address: selected.address });
    guard(() => getJson(`/api/dashboard/resource?${q}`), setDetail);
  }, [selected, revision, needToken]);

  useEffect(() => {
    if (view !== 'graph' || !status || needToken) return;
    guard(() => getJson(`/api/dashboard/graph?${new URLSearchParams({ stack: shownStack })}`), setGraph);
  }, [view, shownStack, revision, status !== null, needToken]);

  useEffect(() => {
    if (view !== 'history' || !status || needToken) return;
    guard(() => getJson(`/api/dashboard/history?${new URLSearchParams({ stack: shownStack })}`), setHistory);
  }, [view, shownStack, revision, status !== null, needToken]);

  useEffect(() => {
    if (view !== 'rates' || needToken) return;
    guard(() => getJson('/api/dashboard/rates'), setRates);
  }, [view, revision, needToken]);

  const select = useCallback((r) => {
    setDetail({ doc: null, error: null });
    setSelected({ stack: r.stack, address: r.address, key: `${r.stack}\u0000${r.address}` });
  }, []);

  useEffect(() => {
    if (detail.doc) document.getElementById('detail-heading')?.focus();
  }, [detail.doc?.resource.address]);

  if (needToken) return html`<${TokenForm} onToken=${(t) => { setToken(t); setNeedToken(false); setRevision((r) => r + 1); }} />`;

  return html`
    <header class="top">
      <h1>moor watch</h1>
      <span class=${`connection connection-${connection}`} role="status" data-testid="connection">${connection === 'live' ? '● live' : connection === 'reconnecting' ? '○ reconnecting…' : '○ connecting…'}</span>
    </header>
    <nav aria-label="Views"><ul class="tabs">
      ${VIEWS.map(([id, label]) => html`<li><a href=${`#/${id}`} aria-current=${view === id ? 'page' : undefined}>${label}</a></li>`)}
    </ul></nav>
    <main>
      ${error ? html`<p role="alert" class="error">${error}</p>` : null}
      ${status ? html`<${Stacks} status=${status} />` : html`<p aria-busy="true">Waiting for the first cycle…</p>`}
      ${status?.fleet ? html`<${FleetView} fleet=${status.fleet} />` : null}
      <div class=${selected ? 'with-detail' : ''}>
        <div class="view">
          ${view === 'resources' && status ? html`<${ResourceTable} rows=${rows} stacks=${stacks} selected=${selected?.key} onSelect=${select} />` : null}
          ${view === 'graph' ? html`<${GraphView} graph=${graph.doc} error=${graph.error} stacks=${stacks} stack=${shownStack} onStack=${setGraphStack} onSelect=${select} />` : null}
          ${view === 'history' ? html`<${HistoryView} history=${history.doc} error=${history.error} stacks=${stacks} stack=${shownStack} onStack=${setGraphStack} />` : null}
          ${view === 'rates' ? html`<${RatesView} rates=${rates.doc} error=${rates.error} />` : null}
        </div>
        ${selected ? html`<${ResourceDetail} detail=${detail.doc} error=${detail.error} onSelect=${select} onClose=${() => setSelected(null)} />` : null}
      </div>
    </main>`;
}

function Stacks({ status }) {
  return html`
    <section aria-labelledby="stacks-heading">
      <h2 id="stacks-heading" class="visually-hidden">Stacks</h2>
      <ul class="stacks">${status.stacks.map((s) => {
        const result = s.standby ? { label: 'another replica reconciles it', status: 'held' } : RESULTS[s.result] ?? { label: 'first cycle running', status: 'in_progress' };
        const counts = {};
        for (const r of s.resources) counts[r.status] = (counts[r.status] ?? 0) + 1;
        return html`
          <li class="stack" data-stack=${s.stack ?? ''}>
            <h3>${s.stack ?? 'manifests'}</h3>
            <p><span class=${`badge status-${result.status}`} data-health=${s.result ?? ''}>${result.label}</span></p>
            <p class="muted">${s.resources.length} resources${Object.entries(counts).filter(([k]) => k !== 'in_sync').map(([k, n]) => `, ${n} ${k.replace('_', ' ')}`).join('')}</p>
            <p class="muted">last run <${When} iso=${s.lastRunAt} />${s.consecutiveFailures ? `, ${s.consecutiveFailures} failures in a row` : ''}</p>
            ${s.error ? html`<p class="stack-error">${s.error}</p>` : null}
          </li>`;
      })}</ul>
    </section>`;
}

function TokenForm({ onToken }) {
  const [value, setValue] = useState('');
  return html`
    <main class="token">
      <h1>moor watch</h1>
      <form onSubmit=${(e) => { e.preventDefault(); if (value) onToken(value); }}>
        <p>This watch listens beyond this machine and needs its token (<code>--listen-token</code>). It is kept in this tab only and sent as a bearer header.</p>
        <label>Token <input type="password" autocomplete="off" value=${value} onInput=${(e) => setValue(e.currentTarget.value)} /></label>
        <button type="submit">Open the dashboard</button>
      </form>
    </main>`;
}

const root = document.getElementById('app');
root.textContent = '';
render(html`<${App} />`, root);
