// The mark of a wait cut short by the run's interruption (Ctrl-C): what was sent goes on at the
// service, and the step is reported as interrupted, not failed (core/events.ts StepStatus).
const INTERRUPTED = Symbol.for('moor.interrupted');

/** Marks `err` as the end of a wait the interruption cut short; returns it, for `throw interruption(…)`. */
export function interruption<E extends Error>(err: E): E {
  Object.defineProperty(err, INTERRUPTED, { value: true });
  return err;
}

/** Whether a thrown value ended a wait because the run was interrupted. */
export function isInterruption(err: unknown): boolean {
  return err instanceof Error && (err as Error & { [INTERRUPTED]?: boolean })[INTERRUPTED] === true;
}
