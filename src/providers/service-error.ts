// The error value of a failed service call: status, the service's code and message, request ids.
import { UserError } from '../core/diagnostics.js';
import type { ServiceName } from '../core/services.js';

/** Everything known about a failed call; never a token or header value. */
export interface ServiceErrorInfo {
  readonly service: ServiceName;
  readonly method: string;
  /** URL path without the query string. */
  readonly path: string;
  /** Short name of the target for the message, e.g. 'containerGroups/web'. */
  readonly label: string;
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  readonly code?: string;
  readonly serviceMessage: string;
  readonly requestId?: string;
  readonly correlationId?: string;
  /** The request may have been executed: the caller must check before sending it again. */
  readonly outcomeUnknown?: boolean;
  /** Sending the same request later may succeed (throttling, transient failure). */
  readonly retriable?: boolean;
}

/** A failed service call, as a value with context; the CLI prints its message without a stack. */
export class ServiceError extends UserError {
  readonly service: ServiceName;
  readonly status: number;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly correlationId: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly outcomeUnknown: boolean;
  readonly retriable: boolean;

  constructor(info: ServiceErrorInfo, options?: { cause?: unknown }) {
    super(formatServiceError(info), [], options);
    this.name = 'ServiceError';
    this.service = info.service;
    this.status = info.status;
    this.code = info.code;
    this.requestId = info.requestId;
    this.correlationId = info.correlationId;
    this.method = info.method;
    this.path = info.path;
    this.outcomeUnknown = info.outcomeUnknown ?? false;
    this.retriable = info.retriable ?? false;
  }
}

/** `PUT containerGroups/web: 409 Code: message (request id …)`. */
export function formatServiceError(info: ServiceErrorInfo): string {
  const status = info.status === 0 ? 'no answer' : String(info.status);
  const code = info.code ? ` ${info.code}` : '';
  const ids = [
    info.requestId ? `request id ${info.requestId}` : undefined,
    info.correlationId && info.correlationId !== info.requestId ? `correlation id ${info.correlationId}` : undefined,
  ].filter((s): s is string => s !== undefined);
  const suffix = ids.length > 0 ? ` (${ids.join(', ')})` : '';
  const unknown = info.outcomeUnknown ? '; the outcome is unknown: the request may have been carried out, check before sending it again' : '';
  return `${info.method} ${info.label}: ${status}${code}: ${info.serviceMessage}${unknown}${suffix}`;
}

/** Whether a value is a ServiceError whose request may have been executed without us seeing the answer. */
export function isLostAnswer(err: unknown): err is ServiceError {
  return err instanceof ServiceError && (err.outcomeUnknown || err.status === 0 || err.status >= 500);
}
