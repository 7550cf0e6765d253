// The closing lines of apply --refresh-only: what was accepted into state, what was refused.
import type { StepOutcome } from '../core/events.js';
import type { JsonlEvent } from './jsonl-output.js';

export function refreshSummary(outcomes: readonly StepOutcome[]): string {
  const done = outcomes.filter((o) => o.status === 'done');
  const failed = outcomes.filter((o) => o.status === 'failed');
  const forgotten = done.filter((o) => o.action === 'forget').length;
  const lines = [
    `Refresh ${failed.length ? 'incomplete' : 'complete'}: ${done.length - forgotten} accepted from live into state, ${forgotten} gone and forgotten${failed.length ? `; ${failed.length} refused` : ''}; nothing live was changed.`,
  ];
  for (const f of failed) lines.push(`  ${f.address}: ${f.error}`);
  return lines.join('\n');
}

/** apply --refresh-only's closing event of `--output jsonl`: an apply_summary that says it changed nothing live. */
export function refreshSummaryEvent(outcomes: readonly StepOutcome[], line: string): JsonlEvent {
  const done = outcomes.filter((o) => o.status === 'done');
  const failed = outcomes.filter((o) => o.status === 'failed');
  const forgotten = done.filter((o) => o.action === 'forget').length;
  return {
    type: 'apply_summary',
    refreshOnly: true,
    status: failed.length ? 'incomplete' : 'complete',
    accepted: done.length - forgotten,
    forgotten,
    failed: failed.length,
    rootCauses: failed.map((o) => ({ address: o.address, error: o.error ?? null })),
    message: line.split('\n')[0],
  };
}
