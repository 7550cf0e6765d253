// Errors of requests attributed to a step (core/request-context.ts): refused before the step
// started, or cut short by its interruption.
import { UserError } from '../core/diagnostics.js';
import { interruption } from '../core/interrupted.js';

/** The error of a request refused because its step was interrupted before it sent anything. */
export class NotStartedError extends Error {
  constructor() {
    super('interrupted before the first request was sent');
    this.name = 'NotStartedError';
  }
}

/**
 * A write of a step that had already started, still waiting for its turn (a throttling pause, the
 * service's pacing) when the run was interrupted: it is not sent. Its step ends interrupted; what
 * it sent before goes on at the service, and the next plan reads where it got to.
 */
export class WriteNotSentError extends UserError {
  constructor(method: string, path: string) {
    super(
      `${method} ${path}: interrupted while waiting for its turn under the service's rate limit; it was not sent, and the next plan reads where things got to`,
    );
    this.name = 'WriteNotSentError';
    interruption(this);
  }
}

/**
 * A wait between polls of an operation ended by the interruption: the operation was sent and
 * goes on at the service; the next plan reads where it got to (a user failure, not a bug).
 */
export class InterruptedWaitError extends UserError {
  constructor(label: string) {
    super(`${label}: interrupted while waiting for the operation to finish; it goes on at the service, and the next plan reads where it got to`);
    this.name = 'InterruptedWaitError';
    interruption(this);
  }
}
