// A plan or drift run that failed before it could plan (invalid manifests, unreadable state...)
// still writes its JSON or markdown report, so a pull-request comment shows the failure.
import { UserError, type Diagnostic } from '../core/diagnostics.js';
import { summarize, type Plan } from '../engine/plan/types.js';
import { renderPlanJson, renderPlanMarkdown } from '../engine/render/index.js';
import type { OutputFormat } from './plan-output.js';
import { appendStepSummary, writeAnnotations } from './github-output.js';
import { diagnosticEvent, jsonlWriter } from './jsonl-output.js';
import { stdoutLine, stdoutText, type IoHost } from './io-host.js';

/** An empty plan carrying the failure's diagnostics (its message as one more when it has none). */
export function unplanned(err: UserError): Plan {
  const diagnostics: Diagnostic[] = [...err.diagnostics];
  if (!diagnostics.some((d) => d.severity === 'error')) diagnostics.push({ severity: 'error', message: err.message });
  return { format: 'moor-plan/1', serial: 0, changes: [], summary: summarize([]), diagnostics };
}

/**
 * Runs a plan or drift command's body; a user error still yields the report on stdout in the
 * machine formats (the error itself is reported once, on stderr, by the CLI).
 */
export async function reportingFailure<T>(io: IoHost, format: OutputFormat, mode: 'plan' | 'drift' | 'apply', body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof UserError && format === 'jsonl') {
      const emit = jsonlWriter(stdoutText(io));
      const { diagnostics } = unplanned(err);
      for (const d of diagnostics) emit(diagnosticEvent(d));
      emit({ type: `${mode}_summary`, status: 'failed', errors: diagnostics.filter((d) => d.severity === 'error').length, message: err.message });
    } else if (mode === 'apply' && format !== 'github') {
      // apply reports in text, jsonl or github only.
    } else if (err instanceof UserError && format === 'github') {
      const plan = unplanned(err);
      writeAnnotations(plan.diagnostics, stdoutLine(io));
      appendStepSummary(renderPlanMarkdown(plan, { mode: mode === 'drift' ? 'drift' : 'plan', title: `moor ${mode}` }), io.env);
    } else if (err instanceof UserError && format !== 'text') {
      const plan = unplanned(err);
      io.stdout.write(format === 'json' ? renderPlanJson(plan) : renderPlanMarkdown(plan, { mode: mode === 'drift' ? 'drift' : 'plan' }));
    }
    throw err;
  }
}
