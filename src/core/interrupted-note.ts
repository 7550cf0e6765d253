// How every report says an interrupted step ended (progress lines, closing lines, annotations,
// notifications): one wording, true to whether the step had sent a change.
import type { StepOutcome } from './events.js';

/** What an interrupted step's line adds: nothing is lost, and nothing is sent again blindly. */
export const INTERRUPTED_NOTE = '(what it sent goes on at the service; the next plan reads where it got to)';
/** The same for a step that had sent no change (it only read, or waited for the service): nothing of it goes on. */
export const INTERRUPTED_NOTHING_SENT_NOTE = '(it had sent no change; the next plan reads where things got to)';

export function interruptedNote(o: StepOutcome): string {
  return o.sentNoChange ? INTERRUPTED_NOTHING_SENT_NOTE : INTERRUPTED_NOTE;
}

/**
 * An interrupted step that had sent no change, after its address: `update interrupted (it had sent
 * no change; …)`, or `interrupted (…)` for a no-op that only waited. Its raw error would claim that
 * what it sent goes on at the service. Undefined when it had sent a change (its error says which).
 */
export function nothingSentInterruption(o: StepOutcome): string | undefined {
  if (o.status !== 'interrupted' || !o.sentNoChange) return undefined;
  return `${o.action === 'no-op' ? '' : `${o.action} `}interrupted ${INTERRUPTED_NOTHING_SENT_NOTE}`;
}
