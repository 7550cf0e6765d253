// The closing lines of apply: counts per action, then the root causes of failures only.
import { changesDone, countOutcomes } from '../core/apply-counts.js';
import { countsAsChange, type StepOutcome } from '../core/events.js';
import { interruptedNote } from '../core/interrupted-note.js';
import { lineText } from '../core/foreign-text.js';

export function applySummary(outcomes: readonly StepOutcome[]): string {
  // A no-op that failed sent nothing (a job of unknown outcome holding back its dependents): a root
  // cause, but not counted as failed (as the jsonl summary counts) — unless it followed an earlier
  // write still provisioning, and that write failed.
  const failedNoOps = outcomes.filter((o) => o.status === 'failed' && !countsAsChange(o));
  const failed = outcomes.filter((o) => o.status === 'failed' && countsAsChange(o) && !o.refused);
  const refused = outcomes.filter((o) => o.status === 'failed' && o.refused);
  // Interrupted steps are root causes too, counted apart: their operations go on at the service.
  const interrupted = outcomes.filter((o) => o.status === 'interrupted');
  const skipped = outcomes.filter((o) => o.status === 'skipped');
  // The root causes first, so the last line says what happened (pipelines and people read it first).
  const lines: string[] = [];
  for (const f of [...failedNoOps, ...failed, ...refused]) {
    const blocked = skipped.filter((s) => s.rootCause === f.address).map((s) => s.address);
    lines.push(`  ${f.address}: ${f.error}` + (blocked.length ? ` (skipped because of it: ${blocked.join(', ')})` : ''));
  }
  // Said as the progress line says it (the error repeats the step's name and claims a sent operation).
  for (const f of interrupted) {
    const blocked = skipped.filter((s) => s.rootCause === f.address).map((s) => s.address);
    lines.push(`  ${f.address}: interrupted ${interruptedNote(f)}` + (blocked.length ? `; skipped because of it: ${blocked.join(', ')}` : ''));
  }
  // A step with nothing to do that still holds back its dependents (a job whose run of this revision failed).
  for (const b of outcomes.filter((o) => o.blocks !== undefined)) {
    const blocked = skipped.filter((s) => s.rootCause === b.address).map((s) => s.address);
    if (blocked.length) lines.push(`  ${b.address}: ${b.blocks}; skipped because of it: ${blocked.join(', ')}`);
  }
  if (skipped.some((s) => s.rootCause === 'interrupted')) lines.push('  interrupted: the steps not started were skipped; run apply again to continue');
  const c = countOutcomes(outcomes);
  if (!c.incomplete && changesDone(c) === 0) return 'Apply complete: no changes.';
  lines.push(
    `Apply ${c.incomplete ? 'incomplete' : 'complete'}: ${c.created} created, ${c.updated} updated, ${c.replaced} replaced, ${c.deleted} deleted, ${c.run} run` +
      (failed.length ? `; ${failed.length} failed (${failed.map((f) => f.address).join(', ')})` : '') +
      (refused.length ? `; ${refused.length} refused (${refused.map((f) => f.address).join(', ')})` : '') +
      (interrupted.length ? `; ${interrupted.length} interrupted (${interrupted.map((f) => f.address).join(', ')})` : '') +
      (skipped.length ? `; ${skipped.length} skipped` : '') +
      '.',
  );
  // An error quotes a service's text: each line stays one line.
  return lines.map(lineText).join('\n');
}
