// History: one apply's run as state keeps it (who, when, which commit, what changed and how it ended).
import { countOutcomes, type ApplyCounts } from '../../core/apply-counts.js';
import type { StepOutcome } from '../../core/events.js';
import type { JsonObject } from '../../core/json.js';

/**
 * Where a run came from: who, on which CI run, from which commit; `stack` when stacks name it. run-origin.ts
 * finds it with node's modules; it is declared here, where the dashboard's type check reads it without Node's types.
 */
export interface RunOrigin {
  /** `user@host`, or the CI's actor (GITHUB_ACTOR) on GitHub Actions. */
  readonly by: string;
  /** The CI run (GitHub Actions: repository, workflow, run id and its URL), when in one. */
  readonly ci?: { readonly system: string; readonly runId?: string; readonly url?: string; readonly workflow?: string; readonly repository?: string };
  /**
   * The git commit the manifests were at, when they live in a repository; `<sha>+dirty` (as `git
   * describe --dirty` marks it) when the manifests had changes not committed, new files included.
   */
  readonly commit?: string;
  readonly stack?: string;
}

/** How the run as a whole ended. */
export type RunResult = 'succeeded' | 'failed' | 'interrupted';

/** One changed address of a run: what was to be done and how it ended. */
export interface HistoryChange {
  readonly address: string;
  readonly action: string;
  readonly result: 'done' | 'failed' | 'interrupted' | 'skipped';
  /** failed or interrupted: why (the service's code and request id); skipped: the root cause's address. */
  readonly error?: string;
}

/** The apply's counts as the closing line has them; `incomplete` is said by `result`. */
export type HistoryCounts = Omit<ApplyCounts, 'incomplete'>;

/** One apply, as `moor history` lists it. Every field is plain JSON, so state keeps it as it is. */
export interface HistoryRun extends RunOrigin {
  readonly startedAt: string;
  readonly finishedAt: string;
  /** What applied: `apply`, `apply --refresh-only`, `apply --plan`, `watch`. */
  readonly command: string;
  readonly result: RunResult;
  readonly counts: HistoryCounts;
  /** Every address the run changed or tried to (no-ops left out, unless they failed). */
  readonly changes: readonly HistoryChange[];
}

/** Error texts are kept short: a history entry is a summary, the run's own output has the rest. */
const MAX_ERROR_LENGTH = 500;

/** The run of an apply from its step outcomes. */
export function historyRun(origin: RunOrigin, command: string, startedAt: Date, outcomes: readonly StepOutcome[], finishedAt = new Date()): HistoryRun {
  const { incomplete: _incomplete, ...counts } = countOutcomes(outcomes);
  const changes = outcomes.filter((o) => o.action !== 'no-op' || o.status !== 'done').map(historyChange);
  const result: RunResult = outcomes.some((o) => o.status === 'failed')
    ? 'failed'
    : outcomes.some((o) => o.status === 'interrupted')
      ? 'interrupted'
      : counts.skipped > 0
        ? 'failed'
        : 'succeeded';
  return { ...origin, startedAt: startedAt.toISOString(), finishedAt: finishedAt.toISOString(), command, result, counts, changes };
}

function historyChange(o: StepOutcome): HistoryChange {
  const why = o.status === 'skipped' ? (o.rootCause ? `skipped because of ${o.rootCause}` : undefined) : o.error;
  return { address: o.address, action: o.action, result: o.status, ...(why ? { error: shorten(why) } : {}) };
}

function shorten(text: string): string {
  return text.length <= MAX_ERROR_LENGTH ? text : text.slice(0, MAX_ERROR_LENGTH - 1) + '…';
}

/** The run as a JSON object (for state's extras). */
export function runJson(run: HistoryRun): JsonObject {
  return JSON.parse(JSON.stringify(run)) as JsonObject;
}
