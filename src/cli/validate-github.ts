// `moor validate --output github`: an annotation per diagnostic and a short job summary.
import { formatDiagnostic, sortDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import { codeBlock } from '../engine/render/markdown-escape.js';
import { appendStepSummary, writeAnnotations } from './github-output.js';
import { stdoutLine, type IoHost } from './io-host.js';

/** `stack`: the stack validated, named in the summary's heading (its annotations name it in their messages). */
export function githubValidateReport(io: IoHost, diagnostics: readonly Diagnostic[], files: number, stack?: string): void {
  writeAnnotations(stack === undefined ? diagnostics : diagnostics.map((d) => ({ ...d, message: `${d.message} (stack ${stack})` })), stdoutLine(io), io.cwd);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const headline =
    errors > 0
      ? `❌ ${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`
      : `✅ valid (${files} ${files === 1 ? 'file' : 'files'}${warnings > 0 ? `, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}` : ''})`;
  const lines = [stack === undefined ? '### moor validate' : `### moor validate · stack ${stack}`, '', `**${headline}**`, ''];
  if (diagnostics.length > 0) lines.push(codeBlock('text', sortDiagnostics(diagnostics).map(formatDiagnostic)));
  appendStepSummary(lines.join('\n'), io.env);
}
