// What an operation (plan, apply, drift) adds to the run's event stream: its results. The engine's
// and providers' events (core/events.ts) say what happens; these say what came of it, so one
// reporter per output format renders both from one stream.
import type { MoorEvent, StepOutcome } from '../../core/events.js';
import type { JsonObject } from '../../core/json.js';
import type { UserError } from '../../core/diagnostics.js';
import type { Plan } from '../plan/types.js';
import type { DependencyGraph } from '../graph.js';
import type { StateDocument } from '../state/types.js';
import type { RequestStats } from '../../core/request-pacing.js';

/** plan: what apply would do; drift: only what moved live (drift, and plan/apply --refresh-only). */
export type PlanMode = 'plan' | 'drift';

export type ResultEvent =
  /**
   * A plan (or drift report) is decided; `document`: its JSON document, when the request asked for it; `stack`: the stack's name, when the run has one;
   * `made`: what a plan operation made it from (the manifests' graph, the state read), for reporters that show more than the plan (moor watch's dashboard).
   */
  | {
      readonly type: 'plan_ready';
      readonly mode: PlanMode;
      readonly plan: Plan;
      readonly document?: JsonObject;
      readonly stack?: string;
      readonly made?: PlanMadeFrom;
    }
  /** Apply starts its steps (after the confirmation); `stats`: the request scheduler's counts, for a status line. */
  | { readonly type: 'apply_started'; readonly plan: Plan; readonly stats: () => RequestStats }
  /** Every step has ended; `refresh`: apply --refresh-only's outcomes (state accepted what drifted). */
  | { readonly type: 'apply_done'; readonly outcomes: readonly StepOutcome[]; readonly refresh: boolean; readonly stack?: string }
  /** Every stack's plan (or drift) of a run over all stacks, reported together once all are made. */
  | { readonly type: 'stacks_ready'; readonly mode: PlanMode; readonly runs: readonly StackResult[] }
  /** The run ended on a user's error (bad input, a lock held, a refused saved plan) before its result. */
  | { readonly type: 'run_failed'; readonly command: 'plan' | 'apply' | 'drift'; readonly error: UserError };

/** What a plan was made from, beside the plan itself. */
export interface PlanMadeFrom {
  readonly graph: DependencyGraph;
  readonly state: StateDocument;
}

/** One stack's result in a run over all stacks: its plan (or an empty one carrying why it could not plan), and its JSON document when asked for. */
export interface StackResult {
  readonly stack: string;
  readonly plan: Plan;
  readonly document?: JsonObject;
}

export type RunEvent = MoorEvent | ResultEvent;

export type RunEventOf<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;

/**
 * Where an operation's results go, and with them the run's other events (the CLI hands one reporter
 * in as both). An operation awaits each result it sends: a display may finish drawing first.
 */
export type RunSink = (event: RunEvent) => void | Promise<void>;
