// github: the text report, plus an annotation per diagnostic and the job summary (the plan's, then
// the apply's); a run that failed before its plan still annotates and summarizes the failure.
import { renderPlanMarkdown } from '../../engine/render/index.js';
import type { RunEvent } from '../../engine/operations/run-events.js';
import { reportApplyToGitHub, reportRefreshToGitHub } from '../apply-github.js';
import { appendStepSummary, writeAnnotations } from '../github-output.js';
import { stdoutLine, type IoHost } from '../io-host.js';
import { refreshSummary } from '../refresh-summary.js';
import { unplanned } from '../unplanned.js';
import { annotateStacks } from '../all-stacks.js';
import { textReporter } from './text-reporter.js';
import type { Reporter, ReporterOptions } from './reporter-types.js';

export function githubReporter(io: IoHost, options: ReporterOptions): Reporter {
  const annotateResults = (e: RunEvent): void => {
    if (e.type === 'plan_ready') {
      // The log keeps the text; each diagnostic becomes an annotation; the job summary gets the markdown.
      writeAnnotations(e.plan.diagnostics, stdoutLine(io), io.cwd);
      appendStepSummary(renderPlanMarkdown(e.plan, { mode: e.mode, stack: e.stack }), io.env);
    } else if (e.type === 'stacks_ready') annotateStacks(io, e.runs, e.mode);
    else if (e.type === 'apply_done') {
      if (e.refresh) reportRefreshToGitHub(io, e.outcomes, refreshSummary(e.outcomes));
      else reportApplyToGitHub(io, e.outcomes);
    } else if (e.type === 'run_failed') {
      const plan = unplanned(e.error);
      writeAnnotations(plan.diagnostics, stdoutLine(io), io.cwd);
      appendStepSummary(renderPlanMarkdown(plan, { mode: e.command === 'drift' ? 'drift' : 'plan', title: `moor ${e.command}` }), io.env);
    }
  };
  return textReporter(io, options, annotateResults);
}
