// How apply shows itself: text (the plan, listr2 or plain progress lines, the summary) or a
// JSON event stream on stdout (`--output jsonl`), with the human lines on stderr.
import type { EventSink, StepOutcome } from '../core/events.js';
import type { Plan } from '../engine/plan/types.js';
import { applySummary } from './apply-summary.js';
import { reportApplyToGitHub, reportRefreshToGitHub } from './apply-github.js';
import { applySummaryEvent, jsonlSink, jsonlWriter } from './jsonl-output.js';
import { printPlan } from './plan-output.js';
import { stackNamed } from '../engine/render/summary-line.js';
import { refreshSummary, refreshSummaryEvent } from './refresh-summary.js';
import { plainProgress, terminalProgress, type Progress } from './progress.js';
import { waitLine } from './wait-line.js';
import { stdoutText, type IoHost } from './io-host.js';

import type { SchedulerStats } from '../providers/request-scheduler.js';

export type ApplyOutput = 'text' | 'jsonl' | 'github';

export interface ApplyReport {
  /** The run's events as this output shows them (the session's sink; withSession adds the notice lines). */
  readonly events: EventSink;
  /** Every retry and throttle is a line of its own (plain progress): a long retry's notice would repeat it. */
  readonly retryLines: boolean;
  plan(plan: Plan, mode: 'plan' | 'drift'): void;
  /** Starts showing apply's steps: from now on `events` reach the display. `stats`: the request scheduler's counts, for the terminal's status line. */
  progress(plan: Plan, stats?: () => SchedulerStats): Promise<Progress>;
  summary(outcomes: readonly StepOutcome[]): void;
  /** apply --refresh-only's closing lines (after a blank line), as this output shows them. */
  refreshSummary(outcomes: readonly StepOutcome[]): void;
}

/** `interactive`: listr2 on a terminal; otherwise plain lines on stderr. `stack`: the stack selected, named by the summary lines. */
export function applyReport(io: IoHost, output: ApplyOutput, interactive: boolean, stack?: string): ApplyReport {
  const line = (l: string) => io.stderr.write(l + '\n');
  if (output === 'jsonl') {
    const emit = jsonlWriter(stdoutText(io));
    const events = jsonlSink(emit);
    return {
      events,
      retryLines: false,
      plan: (plan, mode) => printPlan(io, plan, 'jsonl', mode),
      progress: async () => ({ sink: events, done: async () => undefined }),
      summary: (outcomes) => {
        const text = applySummary(outcomes);
        line(text);
        emit(applySummaryEvent(outcomes, text));
      },
      // The stream keeps stdout to events (ending with the summary's); the summary line goes to stderr.
      refreshSummary: (outcomes) => {
        const text = refreshSummary(outcomes);
        line('\n' + text);
        emit(refreshSummaryEvent(outcomes, text));
      },
    };
  }
  // Before apply starts, plain lines show retries and throttles (of planning's reads); then the display shows everything.
  let display: EventSink | undefined;
  const beforeApply: EventSink = (e) => {
    if (!interactive && (e.type === 'request_retried' || e.type === 'throttled')) line(waitLine(e));
  };
  // github: the text report, plus annotations and the job summary (the plan's, then the apply's).
  return {
    events: (e) => (display ?? beforeApply)(e),
    retryLines: !interactive,
    plan: (plan, mode) => printPlan(io, plan, output, mode, stack),
    progress: async (plan, stats) => {
      const shown = interactive ? await terminalProgress(io, plan.changes, stats) : plainProgress(line);
      display = shown.sink;
      return shown;
    },
    summary: (outcomes) => {
      io.stdout.write('\n' + namedLast(applySummary(outcomes), stack) + '\n');
      if (output === 'github') reportApplyToGitHub(io, outcomes);
    },
    refreshSummary: (outcomes) => {
      const text = refreshSummary(outcomes);
      io.stdout.write('\n' + namedLast(text, stack) + '\n');
      if (output === 'github') reportRefreshToGitHub(io, outcomes, text);
    },
  };
}

/** The closing text with its last line (the counts) naming the stack: `stack dev: Apply complete: …`. */
function namedLast(text: string, stack: string | undefined): string {
  if (stack === undefined) return text;
  const lines = text.split('\n');
  lines[lines.length - 1] = stackNamed(stack) + lines[lines.length - 1];
  return lines.join('\n');
}
