// A write to an ARM resource while another operation on it still runs is refused with 409
// (AnotherOperationInProgress): wait for that operation to end, then send the write again.
import { followOperation, type PollOptions } from './long-running.js';
import { ServiceError } from './service-error.js';
import type { RequestSender, TransportRequest, TransportResponse } from './transport.js';

/** How many times a write waits for someone else's operation before the 409 is the answer. */
const MAX_WAITS = 5;
const IN_PROGRESS_CODES = new Set(['anotheroperationinprogress', 'operationinprogress', 'conflictingoperationinprogress']);

/** Whether an error is ARM's "another operation is in progress" refusal. */
export function isOperationInProgress(err: unknown): err is ServiceError {
  return err instanceof ServiceError && err.status === 409 && IN_PROGRESS_CODES.has((err.code ?? '').toLowerCase());
}

/**
 * Sends `req` (a PUT of `resourcePath`); on 409 AnotherOperationInProgress follows the running
 * operation through the resource's provisioningState until it ends, then sends again.
 */
export async function sendAfterRunningOperation(t: RequestSender, req: TransportRequest, resourcePath: string, poll: PollOptions): Promise<TransportResponse> {
  for (let waits = 0; ; waits++) {
    try {
      return await t.request(req);
    } catch (err) {
      if (!isOperationInProgress(err) || waits >= MAX_WAITS) throw err;
      await waitForRunningOperation(t, resourcePath, req.label ?? resourcePath, poll);
    }
  }
}

async function waitForRunningOperation(t: RequestSender, resourcePath: string, label: string, poll: PollOptions): Promise<void> {
  const current = await t.request({ method: 'GET', path: resourcePath, label, accept: [404] });
  if (current.status === 404) return;
  try {
    await followOperation(t, { method: 'PUT', resourcePath, label }, current, poll);
  } catch (err) {
    // The other operation failed or was canceled: it has ended, which is all this write waits for.
    if (!(err instanceof ServiceError) || err.status === 0) throw err;
  }
}
