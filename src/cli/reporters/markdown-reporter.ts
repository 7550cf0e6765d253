// markdown (plan, drift, show): the report as a pull-request comment or a pipeline step summary.
import { renderPlanMarkdown } from '../../engine/render/index.js';
import type { RunEvent } from '../../engine/operations/run-events.js';
import type { IoHost } from '../io-host.js';
import { unplanned } from '../unplanned.js';
import { stacksMarkdown } from '../all-stacks.js';
import type { Reporter } from './reporter-types.js';

export function markdownReporter(io: IoHost): Reporter {
  const events = (e: RunEvent): void => {
    if (e.type === 'plan_ready') io.stdout.write(renderPlanMarkdown(e.plan, { mode: e.mode, stack: e.stack }).trimEnd() + '\n');
    else if (e.type === 'stacks_ready') io.stdout.write(stacksMarkdown(e.runs, e.mode));
    else if (e.type === 'run_failed' && e.command !== 'apply')
      io.stdout.write(renderPlanMarkdown(unplanned(e.error), { mode: e.command === 'drift' ? 'drift' : 'plan' }));
  };
  return { events, retryLines: false, wantsDocument: false, forPrograms: false };
}
