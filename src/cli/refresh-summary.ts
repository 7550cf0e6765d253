// The closing lines of apply --refresh-only: what was accepted into state, what was refused.
import type { StepOutcome } from '../core/events.js';

export function refreshSummary(outcomes: readonly StepOutcome[]): string {
  const done = outcomes.filter((o) => o.status === 'done');
  const failed = outcomes.filter((o) => o.status === 'failed');
  const forgotten = done.filter((o) => o.action === 'forget').length;
  const lines = [`Refresh ${failed.length ? 'incomplete' : 'complete'}: ${done.length - forgotten} accepted from live into state, ${forgotten} gone and forgotten${failed.length ? `; ${failed.length} refused` : ''}; nothing live was changed.`];
  for (const f of failed) lines.push(`  ${f.address}: ${f.error}`);
  return lines.join('\n');
}
