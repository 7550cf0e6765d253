// moor history's output: the runs newest first, as text lines or one JSON document.
import { ACTION_GLYPH, type Action } from '../engine/plan/types.js';
import type { HistoryRun } from '../engine/history/history-run.js';
import { lineText } from '../core/foreign-text.js';
import { DIRTY } from '../engine/history/run-origin.js';

/** `--output json`: {"format":"moor-history/1","runs":[…]} (newest first). */
export function historyJson(runs: readonly HistoryRun[]): string {
  return JSON.stringify({ format: 'moor-history/1', runs }, null, 2) + '\n';
}

/**
 * Text: a heading line per run (when, what, result, who, commit), its counts, then one line per
 * changed address as plan prints it (`+ ContainerGroup/web: done`).
 */
export function historyText(runs: readonly HistoryRun[], address: string | undefined): string {
  if (runs.length === 0) return address ? `No run in the history changed ${address}.\n` : 'No runs in the history yet: it starts with the next apply.\n';
  return runs.map(runText).join('\n');
}

/** The first 12 digits of the commit, with its `+dirty` mark kept. */
function shortCommit(commit: string): string {
  const dirty = commit.endsWith(DIRTY);
  return (dirty ? commit.slice(0, -DIRTY.length) : commit).slice(0, 12) + (dirty ? DIRTY : '');
}

function runText(run: HistoryRun): string {
  const where = [run.stack ? `stack ${run.stack}` : '', run.commit ? `commit ${shortCommit(run.commit)}` : '', run.ci?.url ?? ''].filter(Boolean);
  const head = `${run.startedAt}  ${run.command}  ${run.result}  by ${run.by}${where.length ? '  ' + where.join('  ') : ''}`;
  const c = run.counts;
  const counts =
    `  ${c.created} created, ${c.updated} updated, ${c.replaced} replaced, ${c.deleted} deleted, ${c.run} run` +
    (c.failed ? `, ${c.failed} failed` : '') +
    (c.refused ? `, ${c.refused} refused` : '') +
    (c.interrupted ? `, ${c.interrupted} interrupted` : '') +
    (c.skipped ? `, ${c.skipped} skipped` : '');
  const changes = run.changes.map((ch) => {
    // A run recorded by another version of moor may name an action this one does not know.
    const glyph = (Object.hasOwn(ACTION_GLYPH, ch.action) ? ACTION_GLYPH[ch.action as Action] : '?').trim() || '·';
    // A service's error text is foreign: it may not start lines or workflow commands of its own.
    return `  ${glyph.padStart(3)} ${lineText(ch.address)}: ${ch.result}${ch.error ? ` (${lineText(ch.error)})` : ''}`;
  });
  return [head, counts, ...changes].join('\n') + '\n';
}
