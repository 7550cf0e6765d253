// What a reporter is and the options it is made with: the reporters and the choice among them
// (reporter.ts) both import these from here.
import type { RunSink } from '../../engine/operations/run-events.js';

export type OutputFormat = 'text' | 'json' | 'markdown' | 'github' | 'jsonl';

export interface Reporter {
  /** The run's events and the operation's results, as this format shows them. */
  readonly events: RunSink;
  /** Every retry and throttle is a line of its own (plain progress): a long retry's notice would repeat it. */
  readonly retryLines: boolean;
  /** The format prints the plan's whole JSON document (plan_ready must carry it). */
  readonly wantsDocument: boolean;
  /** An event stream for programs: the run never prompts. */
  readonly forPrograms: boolean;
}

export interface ReporterOptions {
  /** A person at a terminal: apply shows listr2 progress (otherwise plain lines on stderr). */
  readonly terminal: boolean;
  /** Apply shows retries and throttles of its planning reads as plain lines (plan and drift do not). */
  readonly applying: boolean;
}
