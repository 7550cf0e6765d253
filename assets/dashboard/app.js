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
import { plural, RESULTS, statusLabel, When } from './status.js';

const html = htm.bind(h);

/** @typedef {import('../../src/watch/dashboard/api-types.ts').WatchStatus} WatchStatus */

adoptTokenFromFragment();
// The first status is asked for before anything is drawn: it is most of what the page waits for.
/** @type {Promise<WatchStatus> | undefined} */
let early = getJson('/api/status');
early.catch(() => undefined);
/** @returns {Promise<WatchStatus>} */
function loadStatus() {
  const answer = early ?? getJson('/api/status');
  early = undefined;
  return answer;
}

const VIEWS = [
  ['resources', 'Resources'],
  ['graph', 'Graph'],
  ['history', 'History'],
  ['rates', 'Rates'],
];

function viewFromHash() {
  const v = /^#\/(\w+)/.exec(location.hash)?.[1];
  return VIEWS.some(([id]) => id === v) ? v : 'resources';
}

/** The resource a link opens: `#/resources?stack=prod&address=AuthContext%2Fc42`. */
function selectedFromHash() {
  const query = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const address = query.get('address');
  if (!address) return null;
  const stack = query.get('stack') ?? '';
  return { stack, address, key: `${stack}\u0000${address}` };
}

/** The address of a view, with the open resource when there is one: a link to share that reopens it. */
function hashOf(view, selected) {
  return `#/${view}` + (selected ? `?${new URLSearchParams({ stack: selected.stack, address: selected.address })}` : '');
}

/** Graph and history open on the stack that most needs a look: failing, then drifted or changed, else the first. */
const URGENCY = ['failed', 'drifted', 'pending'];
/** @param {WatchStatus} status */
function mostUrgentStack(status) {
  for (const result of URGENCY) {
    const found = status.stacks.find((s) => s.result === result && !s.standby);
    if (found) return found.stack ?? '';
  }
  return status.stacks[0]?.stack ?? '';
}

/**
 * One row per resource of every stack; `key` tells two stacks' resources of one address apart.
 * @param {WatchStatus} status
 * @param {Map<string, boolean>} steps
 */
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

/**
 * A document of the API as a view shows it: null until loaded; the last one kept beside an error.
 * @template T @typedef {{ doc: T | null, error: string | null }} Loaded
 */

function App() {
  const [view, setView] = useState(viewFromHash());
  const [status, setStatus] = useState(/** @type {WatchStatus | null} */ (null));
  const [error, setError] = useState(null);
  const [needToken, setNeedToken] = useState(false);
  const [connection, setConnection] = useState('connecting');
  const [steps, setSteps] = useState(new Map());
  const [selected, setSelected] = useState(selectedFromHash());
  const [detail, setDetail] = useState(/** @type {Loaded<import('../../src/watch/dashboard/api-types.ts').ResourceDetail>} */ ({ doc: null, error: null }));
  const [graphStack, setGraphStack] = useState(null);
  const [graph, setGraph] = useState(/** @type {Loaded<import('../../src/watch/dashboard/api-types.ts').GraphLayout>} */ ({ doc: null, error: null }));
  const [history, setHistory] = useState(/** @type {Loaded<import('../../src/watch/dashboard/api-types.ts').HistoryDocument>} */ ({ doc: null, error: null }));
  const [rates, setRates] = useState(/** @type {Loaded<import('../../src/watch/dashboard/api-types.ts').RatesDocument>} */ ({ doc: null, error: null }));
  const [revision, setRevision] = useState(0);

  const stacks = useMemo(() => (status ? status.stacks.map((s) => s.stack ?? '') : []), [status]);
  const rows = useMemo(() => (status ? flatten(status, steps) : []), [status, steps]);
  const shownStack = graphStack ?? (status ? mostUrgentStack(status) : '');

  // Loads a document for an effect and returns the effect's cleanup: once a later request (another stack, resource
  // or revision) replaces this one, its answer is dropped, so one that arrives late never overwrites the newer.
  const guard = useCallback((load, set) => {
    let wanted = true;
    (async () => {
      try {
        const doc = await load();
        if (wanted) set({ doc, error: null });
      } catch (err) {
        if (!wanted) return;
        if (err instanceof Unauthorized) setNeedToken(true);
        else set((old) => ({ doc: old.doc, error: err instanceof Error ? err.message : String(err) }));
      }
    })();
    return () => {
      wanted = false;
    };
  }, []);

  useEffect(() => {
    const onHash = () => {
      setView(viewFromHash());
      const next = selectedFromHash();
      setSelected((old) => (old?.key === next?.key ? old : next));
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  // The statuses: now, and again after every cycle the live stream tells of.
  useEffect(() => {
    if (needToken) return;
    loadStatus()
      .then((doc) => {
        setStatus(doc);
        setError(null);
        setSteps(new Map());
      })
      .catch((err) => (err instanceof Unauthorized ? setNeedToken(true) : setError(err.message)));
  }, [revision, needToken]);

  const pending = useRef(/** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined));
  useEffect(() => {
    if (needToken) return undefined;
    return followEvents(
      (type, data) => {
        if (type === 'cycle') {
          // Stacks finishing together make one reload.
          clearTimeout(pending.current);
          pending.current = setTimeout(() => setRevision((r) => r + 1), 150);
        } else if (type === 'step' && data.type === 'step') {
          const key = `${data.stack ?? ''}\u0000${data.address}`;
          setSteps((old) => {
            const next = new Map(old);
            if (data.phase === 'started') next.set(key, true);
            else next.delete(key);
            return next;
          });
        }
      },
      (state) => (state === 'unauthorized' ? setNeedToken(true) : setConnection(state)),
    );
  }, [needToken]);

  // Another resource opened: the last one's detail is not shown under its name meanwhile.
  useEffect(() => setDetail({ doc: null, error: null }), [selected?.key]);

  useEffect(() => {
    if (!selected || needToken) return undefined;
    const q = new URLSearchParams({ stack: selected.stack, address: selected.address });
    return guard(() => getJson(`/api/dashboard/resource?${q}`), setDetail);
  }, [selected, revision, needToken]);

  useEffect(() => {
    if (view !== 'graph' || !status || needToken) return undefined;
    return guard(() => getJson(`/api/dashboard/graph?${new URLSearchParams({ stack: shownStack })}`), setGraph);
  }, [view, shownStack, revision, status !== null, needToken]);

  useEffect(() => {
    if (view !== 'history' || !status || needToken) return undefined;
    return guard(() => getJson(`/api/dashboard/history?${new URLSearchParams({ stack: shownStack })}`), setHistory);
  }, [view, shownStack, revision, status !== null, needToken]);

  useEffect(() => {
    if (view !== 'rates' || needToken) return undefined;
    return guard(() => getJson('/api/dashboard/rates'), setRates);
  }, [view, revision, needToken]);

  // Opening a resource changes the address (the hashchange listener opens it): the link reopens it.
  const select = useCallback((r) => {
    location.hash = hashOf(viewFromHash(), r);
  }, []);
  const close = useCallback(() => {
    location.hash = hashOf(viewFromHash(), null);
  }, []);

  useEffect(() => {
    if (detail.doc) document.getElementById('detail-heading')?.focus();
  }, [detail.doc?.resource.address]);

  if (needToken)
    return html`<${TokenForm} onToken=${(t) => {
      setToken(t);
      setNeedToken(false);
      setRevision((r) => r + 1);
    }} />`;

  return html`
    <header class="top">
      <h1>moor watch</h1>
      <span class=${`connection connection-${connection}`} role="status" data-testid="connection">${connection === 'live' ? '● live' : connection === 'reconnecting' ? '○ reconnecting…' : '○ connecting…'}</span>
    </header>
    <nav aria-label="Views"><ul class="tabs">
      ${VIEWS.map(([id, label]) => html`<li><a href=${hashOf(id, selected)} aria-current=${view === id ? 'page' : undefined}>${label}</a></li>`)}
    </ul></nav>
    <main>
      ${error ? html`<p role="alert" class="error">${error}</p>` : null}
      ${status && connection === 'reconnecting' ? html`<p role="alert" class="stale-note" data-testid="stale">The watch is not answering: what is shown is from before it stopped and may be out of date.</p>` : null}
      ${status ? html`<${Stacks} status=${status} stale=${connection === 'reconnecting'} />` : html`<p aria-busy="true">Waiting for the first cycle…</p>`}
      ${status?.fleet ? html`<${FleetView} fleet=${status.fleet} />` : null}
      <div class=${selected ? 'with-detail' : ''}>
        <div class="view">
          ${view === 'resources' && status ? html`<${ResourceTable} rows=${rows} stacks=${stacks} selected=${selected?.key} onSelect=${select} />` : null}
          ${view === 'graph' ? html`<${GraphView} graph=${graph.doc} error=${graph.error} stacks=${stacks} stack=${shownStack} onStack=${setGraphStack} onSelect=${select} />` : null}
          ${view === 'history' ? html`<${HistoryView} history=${history.doc} error=${history.error} stacks=${stacks} stack=${shownStack} onStack=${setGraphStack} />` : null}
          ${view === 'rates' ? html`<${RatesView} rates=${rates.doc} error=${rates.error} />` : null}
        </div>
        ${selected ? html`<${ResourceDetail} detail=${detail.doc} error=${detail.error} onSelect=${select} onClose=${close} />` : null}
      </div>
    </main>`;
}

/** A card while the watch does not answer: its last result may no longer hold, so it says unknown. */
const STALE = { label: 'unknown: the watch is not answering', status: 'unknown' };

/** @param {{ status: WatchStatus, stale: boolean }} props */
function Stacks({ status, stale }) {
  return html`
    <section aria-labelledby="stacks-heading">
      <h2 id="stacks-heading" class="visually-hidden">Stacks</h2>
      <ul class="stacks">${status.stacks.map((s) => {
        const known = s.standby
          ? { label: 'another replica reconciles it', status: 'held' }
          : ((s.result && RESULTS[s.result]) ?? { label: 'first cycle running', status: 'in_progress' });
        const result = stale ? STALE : known;
        const counts = {};
        for (const r of s.resources) counts[r.status] = (counts[r.status] ?? 0) + 1;
        return html`
          <li class=${stale ? 'stack stale' : 'stack'} data-stack=${s.stack ?? ''} data-stale=${stale ? 'true' : undefined}>
            <h3>${s.stack ?? 'manifests'}</h3>
            <p><span class=${`badge status-${result.status}`} data-health=${stale ? 'unknown' : (s.result ?? '')}>${result.label}</span></p>
            ${stale ? html`<p class="muted">last known: ${known.label}</p>` : null}
            <p class="muted" data-testid="stack-counts">${plural(s.resources.length, 'resource')}${Object.entries(counts)
              .filter(([k]) => k !== 'in_sync')
              .map(([k, n]) => `, ${n} ${statusLabel(k)}`)
              .join('')}</p>
            <p class="muted">last run <${When} iso=${s.lastRunAt} />${s.consecutiveFailures ? `, ${plural(s.consecutiveFailures, 'failure')} in a row` : ''}</p>
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
      <form onSubmit=${(e) => {
        e.preventDefault();
        if (value) onToken(value);
      }}>
        <p>This watch listens beyond this machine and needs its token (<code>--listen-token</code>). It is kept in this tab only and sent as a bearer header.</p>
        <label>Token <input type="password" autocomplete="off" value=${value} onInput=${(e) => setValue(e.currentTarget.value)} /></label>
        <button type="submit">Open the dashboard</button>
      </form>
    </main>`;
}

const root = /** @type {HTMLElement} */ (document.getElementById('app'));
root.textContent = '';
render(html`<${App} />`, root);
