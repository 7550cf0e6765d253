// jsonl (plan, apply): every event of the run as one JSON line on stdout, results included; the
// human lines (diagnostics, the closing summary) on stderr.
import type { RunEvent } from '../../engine/operations/run-events.js';
import { applySummary } from '../apply-summary.js';
import { stdoutText, type IoHost } from '../io-host.js';
import { applySummaryEvent, diagnosticEvent, emitPlan, jsonlSink, jsonlWriter } from '../jsonl-output.js';
import { refreshSummary, refreshSummaryEvent } from '../refresh-summary.js';
import { unplanned } from '../unplanned.js';
import { diagnosticLines } from './diagnostic-lines.js';
import type { Reporter } from './reporter-types.js';

export function jsonlReporter(io: IoHost): Reporter {
  const emit = jsonlWriter(stdoutText(io));
  const steps = jsonlSink(emit);
  const line = (l: string) => io.stderr.write(l + '\n');
  const events = (e: RunEvent): void => {
    if (e.type === 'plan_ready') {
      emitPlan(emit, e.plan, e.mode);
      diagnosticLines(io, e);
    } else if (e.type === 'apply_done') {
      // The stream keeps stdout to events (ending with the summary's); the summary line goes to stderr.
      const text = e.refresh ? refreshSummary(e.outcomes) : applySummary(e.outcomes);
      line(e.refresh ? '\n' + text : text);
      emit(e.refresh ? refreshSummaryEvent(e.outcomes, text) : applySummaryEvent(e.outcomes, text));
    } else if (e.type === 'run_failed') {
      const { diagnostics } = unplanned(e.error);
      for (const d of diagnostics) emit(diagnosticEvent(d));
      emit({ type: `${e.command}_summary`, status: 'failed', errors: diagnostics.filter((d) => d.severity === 'error').length, message: e.error.message });
    } else if (e.type !== 'apply_started' && e.type !== 'stacks_ready') steps(e);
  };
  return { events, retryLines: false, wantsDocument: false, forPrograms: true };
}
