// History: appends an apply's run to the state backend's history, fenced by the same lock as its state writes.
import type { EventSink, StepOutcome } from '../../core/events.js';
import type { Masker } from '../../core/masker.js';
import { UserError } from '../../core/diagnostics.js';
import type { HistoryLimit, StateBackend } from '../state/types.js';
import { historyRun, runJson } from './history-run.js';
import { runOrigin } from './run-origin.js';

/** What a history entry needs to know of the apply beyond its outcomes. */
export interface RunDescription {
  /** `apply`, `apply --plan`, `apply --refresh-only`, `watch`. */
  readonly command: string;
  /** The manifest paths, to find their git commit. */
  readonly paths: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stack?: string;
  /** history.keep and history.maxBytes of the config. */
  readonly limit: HistoryLimit;
  /** The run's masker: a service's error text may echo a secret. */
  readonly masker: Masker;
}

/**
 * Appends the run. A failure to record it (state unwritable, the lock lost) is a notice, not a
 * failure of the apply: every change is already recorded in state on its own, and the result stands.
 */
export async function recordRun(
  backend: StateBackend,
  description: RunDescription,
  startedAt: Date,
  outcomes: readonly StepOutcome[],
  events: EventSink,
): Promise<void> {
  if (!backend.appendHistory) return;
  const origin = await runOrigin(description.env, description.paths, description.cwd);
  const run = historyRun({ ...origin, ...(description.stack ? { stack: description.stack } : {}) }, description.command, startedAt, outcomes);
  try {
    // Error texts come from services, which may echo a value: masked as any output is.
    await backend.appendHistory([description.masker.maskDeep(runJson(run))], description.limit);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    events({ type: 'notice', message: `moor: this apply was not recorded in the history: ${err.message}` });
  }
}
