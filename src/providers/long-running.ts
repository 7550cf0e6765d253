// Follows an ARM long-running operation to its end: Azure-AsyncOperation, Location, or provisioningState.
import type { ServiceName } from '../core/services.js';
import { expectObject, expectString } from './answer-shape.js';
import { parseErrorBody } from './error-body.js';
import { resolveUrl } from './endpoint.js';
import { ServiceError } from './service-error.js';
import { retryAfterMs } from './retry-policy.js';
import type { RequestSender, TransportResponse } from './transport.js';

export interface PollOptions {
  /** When set, the longest wait between polls (caps Retry-After); tests set it small. */
  readonly pollIntervalMs?: number;
  /** Wait between polls when the service names none (default 2 000 ms). */
  readonly defaultIntervalMs?: number;
  /** Give up after waiting this long in total (default 30 minutes). */
  readonly maxWaitMs?: number;
}

const TERMINAL = new Set(['succeeded', 'failed', 'canceled', 'cancelled']);

/** The operation being followed, for requests and messages. */
export interface Operation {
  readonly method: 'PUT' | 'DELETE';
  /** The resource path (with api-version), GET to read its provisioningState. */
  readonly resourcePath: string;
  readonly label: string;
  /** DELETE: a 404 while polling means gone, which is the goal. */
  readonly goneIsDone?: boolean;
  /**
   * PUT with Azure-AsyncOperation: the first poll, after the Retry-After, reads the resource
   * itself; when it is done, its body is the answer (two requests in all, no operation poll and no
   * GET after it). Otherwise the operation is followed as usual.
   */
  readonly resourceFirst?: boolean;
}

/**
 * Waits until the operation started by `first` reaches a terminal state. Resolves with the last
 * resource body seen when polling the resource itself (so the caller need not GET it again),
 * or undefined; throws ServiceError when the operation failed or was canceled.
 */
export async function followOperation(t: RequestSender, op: Operation, first: TransportResponse, o: PollOptions = {}): Promise<unknown> {
  const poller = new Poller(t, op, o);
  const asyncOp = first.headers.get('azure-asyncoperation');
  // Only when the PUT answered the resource itself (200/201 with a provisioningState); a bare 202 is followed as usual.
  if (asyncOp && op.method === 'PUT' && op.resourceFirst && provisioningState(first.body) !== undefined) {
    const probe = await poller.resourceOnce(first, asyncOp);
    if (probe.done) return probe.body;
  }
  if (asyncOp) return poller.asyncOperation(asyncOp, first);
  const location = first.headers.get('location');
  if (location && first.status === 202) return poller.location(location, first);
  if (op.method === 'PUT') return poller.provisioningState(first);
  return undefined;
}

class Poller {
  private waited = 0;

  constructor(
    private readonly t: RequestSender,
    private readonly op: Operation,
    private readonly o: PollOptions,
  ) {}

  async asyncOperation(url: string, first: TransportResponse): Promise<unknown> {
    let last = first;
    for (;;) {
      await this.pause(last);
      last = await this.t.request({ method: 'GET', path: url, label: this.op.label });
      // An operation status without a status is not "in progress": it would be polled for ever.
      const body = expectObject(last, last.body, 'an operation status');
      const status = expectString(last, body, 'status');
      if (TERMINAL.has(status.toLowerCase())) {
        if (status.toLowerCase() !== 'succeeded') throw this.failed(status, body, last);
        return undefined;
      }
    }
  }

  /** One read of the resource after the first wait: done (with its body), or still running. */
  async resourceOnce(first: TransportResponse, operationUrl: string): Promise<{ done: true; body: unknown } | { done: false }> {
    await this.pause(first);
    const res = await this.t.request({ method: 'GET', path: this.op.resourcePath, label: this.op.label });
    const state = provisioningState(res.body);
    if (state?.toLowerCase() === 'succeeded') return { done: true, body: res.body };
    if (state !== undefined && TERMINAL.has(state.toLowerCase())) {
      // The resource says only that it failed; the operation says why.
      const op = await this.t.request({ method: 'GET', path: operationUrl, label: this.op.label });
      const body = op.body as { error?: unknown } | undefined;
      throw body?.error ? this.failed(state, body, op) : this.failed(state, res.body, res);
    }
    return { done: false };
  }

  async location(url: string, first: TransportResponse): Promise<unknown> {
    let last = first;
    for (;;) {
      await this.pause(last);
      last = await this.t.request({ method: 'GET', path: url, label: this.op.label, accept: this.op.goneIsDone ? [404] : [] });
      if (last.status !== 202) return last.status === 200 && this.op.method === 'PUT' ? last.body : undefined;
    }
  }

  async provisioningState(first: TransportResponse): Promise<unknown> {
    let last = first;
    for (;;) {
      const state = provisioningState(last.body);
      if (state === undefined || TERMINAL.has(state.toLowerCase())) {
        if (state !== undefined && state.toLowerCase() !== 'succeeded') throw this.failed(state, last.body, last);
        return last.body;
      }
      await this.pause(last);
      last = await this.t.request({ method: 'GET', path: this.op.resourcePath, label: this.op.label });
    }
  }

  private async pause(res: TransportResponse): Promise<void> {
    const asked = retryAfterMs(res.headers) ?? this.o.defaultIntervalMs ?? 2_000;
    const ms = this.o.pollIntervalMs !== undefined ? Math.min(asked, this.o.pollIntervalMs) : asked;
    const max = this.o.maxWaitMs ?? 30 * 60_000;
    // Say what happened: how long moor waited, and that the next wait would pass the limit.
    if (this.waited + ms > max) {
      throw this.error(
        0,
        'OperationTimedOut',
        `${this.op.method} had not finished after ${seconds(this.waited)} s; waiting ${seconds(ms)} s more would pass the limit of ${seconds(max)} s for an operation; check the resource and run again`,
        res,
      );
    }
    this.waited += ms;
    await this.t.wait(ms, { method: this.op.method, path: res.url.pathname, label: this.op.label });
  }

  private failed(status: string, body: unknown, res: TransportResponse): ServiceError {
    const fromBody = body as { error?: unknown; properties?: { error?: unknown } } | undefined;
    const parsed = parseErrorBody({ error: fromBody?.error ?? fromBody?.properties?.error ?? {} });
    const detail = parsed.message ? `: ${parsed.message}` : '';
    return this.error(res.status, parsed.code ?? `Operation${status}`, `the operation ended ${status}${detail}`, res, parsed.requestId);
  }

  private error(status: number, code: string, message: string, res: TransportResponse, requestId?: string): ServiceError {
    const service: ServiceName = this.t.service;
    return new ServiceError({
      service,
      method: this.op.method,
      path: resolveUrl(service, this.t.baseUrl, this.op.resourcePath).pathname,
      label: this.op.label,
      status,
      code,
      serviceMessage: message,
      requestId: requestId ?? res.headers.get('x-ms-request-id') ?? undefined,
    });
  }
}

function seconds(ms: number): number {
  return Math.round(ms / 1000);
}

function provisioningState(body: unknown): string | undefined {
  const v = (body as { properties?: { provisioningState?: unknown } } | undefined)?.properties?.provisioningState;
  return typeof v === 'string' ? v : undefined;
}
