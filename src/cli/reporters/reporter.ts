// One reporter per output format: an event sink of the run (progress and results alike), chosen
// once per command; commands never ask which format they print.
import type { IoHost } from '../io-host.js';
import type { OutputFormat, Reporter, ReporterOptions } from './reporter-types.js';

export type { OutputFormat, Reporter, ReporterOptions } from './reporter-types.js';

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
