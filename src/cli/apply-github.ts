// `apply --output github`: an annotation per failed step and the apply summary in the job summary,
// next to the plan the github writer of plan-output.ts already put there.
import type { Diagnostic } from '../core/diagnostics.js';
import type { StepOutcome } from '../core/events.js';
import { nothingSentInterruption } from '../core/interrupted-note.js';
import { applySummary } from './apply-summary.js';
import { codeBlock, inlineText } from '../engine/render/markdown-escape.js';
import { appendStepSummary, writeAnnotations } from './github-output.js';
import { stdoutLine, type IoHost } from './io-host.js';

/** A failed step as an error diagnostic of its address (the error names service code and request id); an interrupted one as a warning. */
export function failedStepDiagnostics(outcomes: readonly StepOutcome[]): Diagnostic[] {
  return outcomes
    .filter((o) => o.status === 'failed' || o.status === 'interrupted')
    .map((o) =>
      o.status === 'failed'
        ? // A no-op that failed sent nothing (a job of unknown outcome): its error says why.
          {
            severity: 'error',
            address: o.address,
            message: o.action === 'no-op' ? (o.error ?? 'did not succeed') : `${o.action} failed: ${o.error ?? 'unknown error'}`,
          }
        : // One that had sent no change says so, as its progress line does (its raw error claims a sent operation).
          { severity: 'warning', address: o.address, message: nothingSentInterruption(o) ?? `${o.action} interrupted: ${o.error ?? 'the wait was cut short'}` },
    );
}

/** The markdown of the apply's closing lines: a status line, then the summary as the log shows it. */
export function applySummaryMarkdown(outcomes: readonly StepOutcome[]): string {
  const failed = outcomes.some((o) => o.status !== 'done');
  const text = applySummary(outcomes);
  const last = text.split('\n').at(-1) ?? '';
  return ['### moor apply', '', `**${failed ? '❌' : '✅'} ${inlineText(last)}**`, '', codeBlock('', text.split('\n')), ''].join('\n');
}

export function reportApplyToGitHub(io: IoHost, outcomes: readonly StepOutcome[]): void {
  writeAnnotations(failedStepDiagnostics(outcomes), stdoutLine(io), io.cwd);
  appendStepSummary(applySummaryMarkdown(outcomes), io.env);
}

/** apply --refresh-only's job summary: its closing lines (refreshSummary), first line as the status. */
export function refreshSummaryMarkdown(outcomes: readonly StepOutcome[], text: string): string {
  const failed = outcomes.some((o) => o.status !== 'done');
  const first = text.split('\n')[0];
  return ['### moor apply --refresh-only', '', `**${failed ? '❌' : '✅'} ${inlineText(first)}**`, '', codeBlock('', text.split('\n')), ''].join('\n');
}

export function reportRefreshToGitHub(io: IoHost, outcomes: readonly StepOutcome[], text: string): void {
  writeAnnotations(failedStepDiagnostics(outcomes), stdoutLine(io), io.cwd);
  appendStepSummary(refreshSummaryMarkdown(outcomes, text), io.env);
}
