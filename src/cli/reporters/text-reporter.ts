// The text report: the plan as Terraform prints it, apply's progress (listr2 on a terminal, plain
// lines otherwise) and its closing summary naming the stack.
import type { EventSink } from '../../core/events.js';
import { renderPlanText } from '../../engine/render/index.js';
import { stackNamed } from '../../engine/render/summary-line.js';
import type { RunEvent, RunEventOf } from '../../engine/operations/run-events.js';
import { applySummary } from '../apply-summary.js';
import type { IoHost } from '../io-host.js';
import { plainProgress, terminalProgress, type Progress } from '../progress.js';
import { refreshSummary } from '../refresh-summary.js';
import { useColor } from '../session-options.js';
import { stacksText } from '../all-stacks.js';
import { waitLine } from '../wait-line.js';
import type { Reporter, ReporterOptions } from './reporter-types.js';

/** `extra`: what a format built on the text adds to its results (github's annotations). */
export function textReporter(io: IoHost, options: ReporterOptions, extra?: (e: RunEvent) => void): Reporter {
  const line = (l: string) => io.stderr.write(l + '\n');
  const plainWaits = options.applying && !options.terminal;
  // Before apply starts, plain lines show retries and throttles (of planning's reads); then the display shows everything.
  let display: EventSink = (e) => {
    if (plainWaits && (e.type === 'request_retried' || e.type === 'throttled')) line(waitLine(e));
  };
  let progress: Progress | undefined;
  const events = async (e: RunEvent): Promise<void> => {
    if (e.type === 'plan_ready') io.stdout.write(planText(io, e) + '\n');
    else if (e.type === 'stacks_ready') io.stdout.write(stacksText(io, e.runs, e.mode));
    else if (e.type === 'apply_started') {
      progress = options.terminal ? await terminalProgress(io, e.plan.changes, e.stats) : plainProgress(line);
      display = progress.sink;
    } else if (e.type === 'apply_done') {
      await progress?.done();
      io.stdout.write('\n' + namedLast(e.refresh ? refreshSummary(e.outcomes) : applySummary(e.outcomes), e.stack) + '\n');
    } else if (e.type !== 'run_failed') display(e);
    extra?.(e);
  };
  return { events, retryLines: plainWaits, wantsDocument: false, forPrograms: false };
}

function planText(io: IoHost, e: RunEventOf<'plan_ready'>): string {
  return renderPlanText(e.plan, { color: useColor(io.stdout, io.env), mode: e.mode, stack: e.stack }).trimEnd();
}

/** The closing text with its last line (the counts) naming the stack: `stack dev: Apply complete: …`. */
function namedLast(text: string, stack: string | undefined): string {
  if (stack === undefined) return text;
  const lines = text.split('\n');
  lines[lines.length - 1] = stackNamed(stack) + lines[lines.length - 1];
  return lines.join('\n');
}
