// History: the runs kept in state (extras key "history", oldest first), bounded by history.keep.
import { isObject, type JsonObject, type JsonValue } from '../../core/json.js';
import type { StateDocument } from '../state/types.js';
import type { HistoryRun } from './history-run.js';

/** The key under state `extras`; `state migrate` copies extras, so history moves with the state. */
export const HISTORY_EXTRAS_KEY = 'history';

/** Runs kept when the config does not say (history.keep). */
export const DEFAULT_HISTORY_KEEP = 1000;

/**
 * The runs state holds, oldest first. An entry that is not a run (written by hand, cut short) is
 * passed over rather than failing every apply: history is a record, not something moor acts on.
 */
export function storedRuns(doc: StateDocument): HistoryRun[] {
  const all = doc.extras?.[HISTORY_EXTRAS_KEY];
  if (!Array.isArray(all)) return [];
  return all.filter(isRun) as unknown as HistoryRun[];
}

/** The history with `run` appended and the oldest runs dropped beyond `keep`. */
export function appendedHistory(doc: StateDocument, run: JsonObject, keep: number): JsonValue[] {
  const all = doc.extras?.[HISTORY_EXTRAS_KEY];
  const runs = Array.isArray(all) ? all.filter(isRun) : [];
  runs.push(run);
  return runs.slice(Math.max(0, runs.length - keep));
}

function isRun(v: JsonValue): boolean {
  return isObject(v) && typeof v.startedAt === 'string' && typeof v.finishedAt === 'string' && typeof v.by === 'string' &&
    typeof v.command === 'string' && typeof v.result === 'string' && isObject(v.counts) && Array.isArray(v.changes) &&
    v.changes.every((c) => isObject(c) && typeof c.address === 'string' && typeof c.action === 'string' && typeof c.result === 'string');
}

/** The runs newest first, only those that touched `address` when given (and only that address's change). */
export function listedRuns(doc: StateDocument, address?: string): HistoryRun[] {
  const newestFirst = storedRuns(doc).reverse();
  if (address === undefined) return newestFirst;
  return newestFirst
    .filter((r) => r.changes.some((c) => c.address === address))
    .map((r) => ({ ...r, changes: r.changes.filter((c) => c.address === address) }));
}
