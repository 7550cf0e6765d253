// json (plan, drift, show): one JSON document on stdout, the diagnostics also on stderr; a run that
// failed before its plan prints an empty plan carrying the failure.
import { jsonText } from '../../core/foreign-text.js';
import { renderPlanJson } from '../../engine/render/index.js';
import type { RunEvent } from '../../engine/operations/run-events.js';
import type { IoHost } from '../io-host.js';
import { unplanned } from '../unplanned.js';
import { stacksJson } from '../all-stacks.js';
import { diagnosticLines } from './diagnostic-lines.js';
import type { Reporter } from './reporter-types.js';

export function jsonReporter(io: IoHost): Reporter {
  const events = (e: RunEvent): void => {
    if (e.type === 'plan_ready') {
      io.stdout.write((e.document ? jsonText(e.document, 2) : renderPlanJson(e.plan).trimEnd()) + '\n');
      diagnosticLines(io, e);
    } else if (e.type === 'stacks_ready') io.stdout.write(stacksJson(e.runs));
    else if (e.type === 'run_failed' && e.command !== 'apply') io.stdout.write(renderPlanJson(unplanned(e.error)));
  };
  return { events, retryLines: false, wantsDocument: true, forPrograms: false };
}
