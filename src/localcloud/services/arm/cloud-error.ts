// ARM's CloudError shape and the responses built from it.
import type { LocalResponse } from '../../types.js';

export interface CloudErrorBody {
  code: string;
  message: string;
  target?: string;
  details: CloudErrorBody[];
}

/** `{error: {code, message, target, details}}` as ARM answers every failure. */
export function cloudErrorBody(code: string, message: string, target?: string, details: CloudErrorBody[] = []): { error: CloudErrorBody } {
  return { error: { code, message, ...(target !== undefined ? { target } : {}), details } };
}

export function cloudError(status: number, code: string, message: string, target?: string, details?: CloudErrorBody[]): LocalResponse {
  return { status, body: cloudErrorBody(code, message, target, details) };
}

/** Headers ARM puts on every response. */
export function armResponseHeaders(requestId: string): Record<string, string> {
  return { 'x-ms-request-id': requestId, 'x-ms-correlation-request-id': requestId };
}

/** 400 naming the first problem, with every problem in `details` when there are several. */
export function validationFailure(problems: readonly CloudErrorBody[]): LocalResponse {
  const [first] = problems;
  const details = problems.length > 1 ? [...problems] : [];
  return { status: 400, body: { error: { ...first, details } } };
}
