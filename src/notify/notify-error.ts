// Notifications: a failed connector call as the user sees it, with the id the channel's support asks for.
import { UserError } from '../core/diagnostics.js';
import { ServiceError } from '../providers/service-error.js';

/**
 * Wraps a connector ServiceError so the message says what failed and names the
 * X-Correlating-OperationId (the connector's contract: callers capture it and pass it to support). Other errors pass through.
 */
export function notifyFailure(err: unknown, what: string): unknown {
  if (!(err instanceof ServiceError)) return err;
  const id = err.correlationId ?? err.requestId;
  const support = id ? `; X-Correlating-OperationId: ${id} (quote it to the channel's support)` : '';
  return new UserError(`${what} failed: ${err.message}${support}`, [], { cause: err });
}
