// GitHub Actions: workflow-command annotations for diagnostics, and the markdown report appended
// to the job summary ($GITHUB_STEP_SUMMARY), for `--output github`.
import { appendFileSync } from 'node:fs';
import type { Diagnostic } from '../core/diagnostics.js';
import { fileErrorMessage } from '../engine/file-errors.js';
import { UserError } from '../core/diagnostics.js';

/** Escapes a workflow command's message (GitHub's rules: %, CR, LF). */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value (also : and ,). */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::error file=F,line=L,col=C::MESSAGE` (`::warning …` for warnings); without a location, the address leads the message. */
export function annotation(d: Diagnostic): string {
  const props = d.location
    ? ` file=${escapeProperty(d.location.file)},line=${d.location.line},col=${d.location.col}`
    : '';
  const message = !d.location && d.address ? `${d.address}: ${d.message}` : d.message;
  return `::${d.severity}${props}::${escapeData(message)}`;
}

export function writeAnnotations(diagnostics: readonly Diagnostic[], write: (line: string) => void = (l) => process.stdout.write(l + '\n')): void {
  for (const d of diagnostics) write(annotation(d));
}

/** Appends markdown to the job summary when GitHub names the file; a step outside Actions has none. */
export function appendStepSummary(markdown: string, env: NodeJS.ProcessEnv = process.env): void {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    appendFileSync(file, markdown.trimEnd() + '\n\n');
  } catch (err) {
    throw new UserError(`GITHUB_STEP_SUMMARY: ${fileErrorMessage(err, file) ?? (err as Error).message}`);
  }
}
