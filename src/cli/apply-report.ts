// How apply shows itself: text (the plan, listr2 or plain progress lines, the summary) or a
// JSON event stream on stdout (`--output jsonl`), with the human lines on stderr.
import type { StepOutcome } from '../engine/apply/events.js';
import type { Plan } from '../engine/plan/types.js';
import type { TransportEvent } from '../providers/providers.js';
import { applySummary } from './apply-summary.js';
import { reportApplyToGitHub } from './apply-github.js';
import { applySummaryEvent, jsonlListener, jsonlWriter, transportEvents } from './jsonl-output.js';
import { printPlan } from './plan-output.js';
import { plainProgress, terminalProgress, type Progress } from './progress.js';

import type { SchedulerStats } from '../providers/request-scheduler.js';

export type ApplyOutput = 'text' | 'jsonl' | 'github';

export interface ApplyReport {
  readonly onTransportEvent?: (e: TransportEvent) => void;
  plan(plan: Plan, mode: 'plan' | 'drift'): void;
  /** `stats`: the request scheduler's counts, for the terminal's status line. */
  progress(plan: Plan, interactive: boolean, stats?: () => SchedulerStats): Promise<Progress>;
  summary(outcomes: readonly StepOutcome[]): void;
}

export function applyReport(output: ApplyOutput): ApplyReport {
  const line = (l: string) => process.stderr.write(l + '\n');
  if (output === 'jsonl') {
    const emit = jsonlWriter();
    return {
      onTransportEvent: transportEvents(emit),
      plan: (plan, mode) => printPlan(plan, 'jsonl', mode),
      progress: async () => ({ listener: jsonlListener(emit), done: async () => undefined }),
      summary: (outcomes) => {
        const text = applySummary(outcomes);
        line(text);
        emit(applySummaryEvent(outcomes, text));
      },
    };
  }
  // github: the text report, plus annotations and the job summary (the plan's, then the apply's).
  return {
    plan: (plan, mode) => printPlan(plan, output, mode),
    progress: (plan, interactive, stats) => (interactive ? terminalProgress(plan.changes, stats) : Promise.resolve(plainProgress(line))),
    summary: (outcomes) => {
      process.stdout.write('\n' + applySummary(outcomes) + '\n');
      if (output === 'github') reportApplyToGitHub(outcomes);
    },
  };
}
