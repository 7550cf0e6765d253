// Prints a plan or drift report in the chosen format, with diagnostics where they belong.
import { jsonText } from '../core/foreign-text.js';
import { formatDiagnostic } from '../core/diagnostics.js';
import type { Plan } from '../engine/plan/types.js';
import type { JsonObject } from '../core/json.js';
import { renderPlanJson, renderPlanMarkdown, renderPlanText } from '../engine/render/index.js';
import { useColor } from './session-options.js';
import { appendStepSummary, writeAnnotations } from './github-output.js';
import { emitPlan, jsonlWriter } from './jsonl-output.js';
import { stdoutLine, stdoutText, type IoHost } from './io-host.js';

export type OutputFormat = 'text' | 'json' | 'markdown' | 'github' | 'jsonl';
/** Of drift; plan also streams `jsonl`. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'markdown', 'github'];
export const PLAN_OUTPUT_FORMATS: readonly OutputFormat[] = [...OUTPUT_FORMATS, 'jsonl'];

/** `stack`: the stack selected, named by the summary lines and the markdown heading. */
export function printPlan(io: IoHost, plan: Plan, format: OutputFormat, mode: 'plan' | 'drift', stack?: string): void {
  if (format === 'jsonl') {
    emitPlan(jsonlWriter(stdoutText(io)), plan, mode);
    for (const d of plan.diagnostics) io.stderr.write(formatDiagnostic(d) + '\n');
    return;
  }
  if (format === 'json') {
    io.stdout.write(renderPlanJson(plan).trimEnd() + '\n');
    // The JSON carries the diagnostics; a pipeline log still wants them on stderr.
    for (const d of plan.diagnostics) io.stderr.write(formatDiagnostic(d) + '\n');
    return;
  }
  if (format === 'markdown') {
    io.stdout.write(renderPlanMarkdown(plan, { mode, stack }).trimEnd() + '\n');
    return;
  }
  io.stdout.write(renderPlanText(plan, { color: useColor(io.stdout, io.env), mode, stack }).trimEnd() + '\n');
  if (format === 'github') {
    // The log keeps the text; each diagnostic becomes an annotation; the job summary gets the markdown.
    writeAnnotations(plan.diagnostics, stdoutLine(io));
    appendStepSummary(renderPlanMarkdown(plan, { mode, stack }), io.env);
  }
}

/** Prints a whole plan document (see engine/plan/plan-document.ts) and its diagnostics on stderr. */
export function printPlanDocument(io: IoHost, doc: JsonObject, plan: Plan): void {
  io.stdout.write(jsonText(doc, 2) + '\n');
  for (const d of plan.diagnostics) io.stderr.write(formatDiagnostic(d) + '\n');
}
