// How each status reads: a word and a glyph beside its colour, so colour is never the only signal.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import htm from 'htm';

const html = htm.bind(h);

export const STATUSES = {
  in_sync: { label: 'in sync', glyph: '✓' },
  drifted: { label: 'drifted', glyph: '~' },
  failed: { label: 'failed', glyph: '✗' },
  in_progress: { label: 'in progress', glyph: '⟳' },
  unknown: { label: 'job outcome unknown', glyph: '?' },
  pending: { label: 'manifest changed', glyph: '+' },
  held: { label: 'blocked', glyph: '!' },
};

/** A cycle's result, as a stack's health. */
export const RESULTS = {
  in_sync: { label: 'healthy: in sync', status: 'in_sync' },
  healed: { label: 'healthy: repaired', status: 'in_sync' },
  drifted: { label: 'drifted', status: 'drifted' },
  pending: { label: 'changes not applied', status: 'pending' },
  failed: { label: 'failing', status: 'failed' },
  locked: { label: 'skipped: state locked', status: 'held' },
};

export function statusLabel(status) {
  return STATUSES[status]?.label ?? status;
}

/** `1 resource`, `2 resources`. */
export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

// One clock for every relative time on the page: each second, every <When> shown redraws.
const ticking = new Set();
let clock;

function useSecondTick() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const redraw = () => setTick((n) => n + 1);
    ticking.add(redraw);
    clock ??= setInterval(() => ticking.forEach((f) => f()), 1000);
    return () => {
      ticking.delete(redraw);
      if (ticking.size === 0) {
        clearInterval(clock);
        clock = undefined;
      }
    };
  }, []);
}

export function StatusBadge({ status }) {
  const s = STATUSES[status] ?? { label: status, glyph: '•' };
  return html`<span class=${`badge status-${status}`} data-status=${status}><span aria-hidden="true">${s.glyph}</span> ${s.label}</span>`;
}

/** "3 min ago", with the exact time as the element's datetime and title. */
export function When({ iso }) {
  useSecondTick();
  if (!iso) return html`<span class="muted">never</span>`;
  return html`<time datetime=${iso} title=${iso}>${relative(iso)}</time>`;
}

function relative(iso) {
  const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
  if (s < 0) return `in ${-s < 60 ? `${-s} s` : `${Math.round(-s / 60)} min`}`;
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return iso.slice(0, 10);
}

/** The stack a view shows, chosen among several (nothing when there is one). */
export function StackPicker({ stacks, stack, onStack }) {
  if (stacks.length <= 1) return null;
  return html`
    <label>Stack <select value=${stack} onChange=${(e) => onStack(e.currentTarget.value)}>
      ${stacks.map((s) => html`<option value=${s}>${s}</option>`)}
    </select></label>`;
}
