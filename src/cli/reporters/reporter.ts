// One reporter per output format: an event sink of the run (progress and results alike), chosen
// once per command; commands never ask which format they print.
import type { RunSink } from '../../engine/operations/run-events.js';
import type { IoHost } from '../io-host.js';
import { githubReporter } from './github-reporter.js';
import { jsonReporter } from './json-reporter.js';
import { jsonlReporter } from './jsonl-reporter.js';
import { markdownReporter } from './markdown-reporter.js';
import { textReporter } from './text-reporter.js';

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

const REPORTERS: Readonly<Record<OutputFormat, (io: IoHost, options: ReporterOptions) => Reporter>> = {
  text: textReporter,
  github: githubReporter,
  json: jsonReporter,
  markdown: markdownReporter,
  jsonl: jsonlReporter,
};

export function reporterFor(io: IoHost, format: OutputFormat, options: ReporterOptions): Reporter {
  return REPORTERS[format](io, options);
}
