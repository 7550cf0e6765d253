// History: the runs a state backend keeps (oldest first), read back as runs and listed for `moor history`.
import { isObject, type JsonObject } from '../../core/json.js';
import type { HistoryRun } from './history-run.js';
import { DEFAULT_HISTORY_LIMIT, type HistoryLimit } from '../state/types.js';

/** How much history the config keeps (history.keep, history.maxBytes), the defaults where it does not say. */
export function historyLimit(config: { readonly keep?: number; readonly maxBytes?: number } | undefined): HistoryLimit {
  return { keep: config?.keep ?? DEFAULT_HISTORY_LIMIT.keep, maxBytes: config?.maxBytes ?? DEFAULT_HISTORY_LIMIT.maxBytes };
}

/**
 * The stored entries that are runs, oldest first. One that is not (written by hand, by another
 * tool) is passed over rather than failing the listing: history is a record moor never acts on.
 */
export function storedRuns(entries: readonly JsonObject[]): HistoryRun[] {
  return entries.filter(isRun) as unknown as HistoryRun[];
}

function isRun(v: JsonObject): boolean {
  return (
    typeof v.startedAt === 'string' &&
    typeof v.finishedAt === 'string' &&
    typeof v.by === 'string' &&
    typeof v.command === 'string' &&
    typeof v.result === 'string' &&
    isObject(v.counts) &&
    Array.isArray(v.changes) &&
    v.changes.every((c) => isObject(c) && typeof c.address === 'string' && typeof c.action === 'string' && typeof c.result === 'string')
  );
}

/** The runs newest first, only those that touched `address` when given (and only that address's change). */
export function listedRuns(entries: readonly JsonObject[], address?: string): HistoryRun[] {
  const newestFirst = storedRuns(entries).reverse();
  if (address === undefined) return newestFirst;
  return newestFirst
    .filter((r) => r.changes.some((c) => c.address === address))
    .map((r) => ({ ...r, changes: r.changes.filter((c) => c.address === address) }));
}
