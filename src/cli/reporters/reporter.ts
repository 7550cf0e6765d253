// One reporter per output format: an event sink of the run (progress and results alike), chosen
// once per command; commands never ask which format they print.
import type { RunSink } from '../../engine/operations/run-events.js';
import type { IoHost } from '../io-host.js';

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

type MakeReporter = (io: IoHost, options: ReporterOptions) => Reporter;

/** Each loaded only when chosen (start-up: a run loads one format's renderers). */
const REPORTERS: Readonly<Record<OutputFormat, () => Promise<MakeReporter>>> = {
  text: async () => (await import('./text-reporter.js')).textReporter,
  github: async () => (await import('./github-reporter.js')).githubReporter,
  json: async () => (await import('./json-reporter.js')).jsonReporter,
  markdown: async () => (await import('./markdown-reporter.js')).markdownReporter,
  jsonl: async () => (await import('./jsonl-reporter.js')).jsonlReporter,
};

export async function reporterFor(io: IoHost, format: OutputFormat, options: ReporterOptions): Promise<Reporter> {
  return (await REPORTERS[format]())(io, options);
}
