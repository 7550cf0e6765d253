// One HTTP transport for every service: auth, timeouts, retries with backoff, Retry-After, errors as values.
import type { ServiceName } from '../core/services.js';
import { parseErrorBody } from './error-body.js';
import { resolveUrl } from './endpoint.js';
import { ServiceError } from './service-error.js';
import type { TokenSource } from './token-source.js';
import {
  DEFAULT_RETRY, RETRY_STATUSES, backoffDelay, describeFetchFailure, isConnectionFailure, isUnreachable, neverSent, retryAfterMs, unreachableReason,
  type RetryOptions,
} from './retry-policy.js';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

/** Progress and debug events; carry no header, token or body. */
export interface TransportEvent {
  readonly type: 'retry' | 'request';
  readonly service: ServiceName;
  readonly method: string;
  /** URL path without the query string. */
  readonly path: string;
  readonly status?: number;
  readonly attempt?: number;
  readonly delayMs?: number;
}

export interface TransportOptions extends RetryOptions {
  readonly service: ServiceName;
  readonly baseUrl: URL;
  readonly token: TokenSource;
  /** Per-attempt timeout in ms (default 30 000). */
  readonly timeoutMs?: number;
  /** Statuses retried with backoff (default 429, 500, 502, 503, 504). */
  readonly retryStatuses?: readonly number[];
  /** Progress and debug hook. */
  readonly onEvent?: (e: TransportEvent) => void;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  readonly fetch?: typeof fetch;
  /** Called before every attempt of a request that is not a GET; throwing stops it unsent (a run that lost its state lock). */
  readonly beforeWrite?: () => Promise<void>;
}

export interface TransportRequest {
  readonly method: HttpMethod;
  /** A path (with optional query) under the base URL, or an absolute URL on the same origin. */
  readonly path: string;
  /** Query parameters added to the path; undefined values are left out. */
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** JSON body. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Safe to send again when the answer is lost. Default: every method but POST. A POST
   * the service treats as a pure read (checkNameAvailability) may set it.
   */
  readonly idempotent?: boolean;
  /** Error statuses returned to the caller instead of thrown (e.g. 404 on a read). */
  readonly accept?: readonly number[];
  /** Read the body as bytes rather than JSON. */
  readonly binary?: boolean;
  /** Short target name for messages ('containerGroups/web'); the URL path otherwise. */
  readonly label?: string;
  readonly signal?: AbortSignal;
}

/** A response the caller asked for (2xx, 3xx without follow, or an accepted status). */
export interface TransportResponse {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON, the text when not JSON, or undefined when empty. */
  readonly body: unknown;
  /** The raw bytes, for binary requests. */
  readonly bytes?: Uint8Array;
  readonly url: URL;
}

/** One request being sent, with what every attempt needs. */
interface Call {
  readonly req: TransportRequest;
  readonly url: URL;
  readonly label: string;
  readonly token: string | undefined;
  readonly idempotent: boolean;
}

type Attempt = { readonly done: true; readonly response: TransportResponse } | { readonly done: false; readonly delayMs: number };

const REQUEST_ID_HEADERS = ['x-ms-request-id', 'request-id', 'x-ms-correlation-request-id', 'requestid', 'x-correlating-operationid'];
const sleepReal = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Sends requests to one service. Errors are ServiceError values; nothing logs headers. */
export class Transport {
  readonly service: ServiceName;
  readonly baseUrl: URL;
  private readonly o: TransportOptions;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(options: TransportOptions) {
    this.o = options;
    this.service = options.service;
    this.baseUrl = options.baseUrl;
    this.sleep = options.sleep ?? sleepReal;
    this.random = options.random ?? Math.random;
  }

  /** Waits as the transport waits between retries (injectable in tests). */
  wait(ms: number): Promise<void> {
    return this.sleep(ms);
  }

  /**
   * Sends one request, retrying what is safe to retry; resolves with the answer or throws ServiceError.
   * A 401 renews the token once and sends the request again: a refused request was not executed.
   */
  async request(req: TransportRequest): Promise<TransportResponse> {
    const token = await this.o.token();
    try {
      return await this.requestWith(req, token);
    } catch (err) {
      const renewed = err instanceof ServiceError && err.status === 401 ? await this.o.token.renew?.(token) : undefined;
      if (renewed === undefined) throw err;
      return this.requestWith(req, renewed);
    }
  }

  private async requestWith(req: TransportRequest, token: string | undefined): Promise<TransportResponse> {
    const url = this.urlOf(req);
    const call: Call = {
      req, url, label: req.label ?? url.pathname, token,
      idempotent: req.idempotent ?? req.method !== 'POST',
    };
    const maxAttempts = Math.max(1, this.o.maxAttempts ?? DEFAULT_RETRY.maxAttempts);
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(call, attempt, attempt >= maxAttempts);
      if (outcome.done) return outcome.response;
      await this.pause(req, url, attempt, outcome.delayMs);
    }
  }

  /** One attempt: the answer, a wait before the next attempt, or a thrown ServiceError. */
  private async attempt(c: Call, attempt: number, last: boolean): Promise<Attempt> {
    if (c.req.method !== 'GET') await this.o.beforeWrite?.();
    let res: Response;
    try {
      res = await this.send(c.req, c.url, c.token);
      this.emit({ type: 'request', method: c.req.method, path: c.url.pathname, status: res.status, attempt });
      // The body is read inside the try: a connection that breaks mid-body is a lost answer too.
      if (res.ok || (res.status >= 300 && res.status < 400) || c.req.accept?.includes(res.status)) {
        return { done: true, response: await this.readResponse(c.req, c.url, res) };
      }
    } catch (err) {
      // The caller gave up, or fetch itself failed (a bug): nothing to retry.
      if (c.req.signal?.aborted || !isConnectionFailure(err)) throw err;
      if (isUnreachable(err, c.url)) throw this.unreachableError(c, err);
      const safe = c.idempotent || neverSent(err);
      if (!safe || last) throw this.connectionError(c, err, !safe);
      return { done: false, delayMs: backoffDelay(attempt, this.random, this.o) };
    }
    const retryable = (this.o.retryStatuses ?? RETRY_STATUSES).includes(res.status);
    // A 429 means the request was refused, not executed: even a POST may go again.
    const safe = c.idempotent || res.status === 429;
    if (!retryable || !safe || last) throw await this.statusError(c, res, retryable && !safe, retryable);
    await res.arrayBuffer().catch(() => undefined);
    return { done: false, delayMs: this.delayFor(res, attempt) };
  }

  private urlOf(req: TransportRequest): URL {
    const url = resolveUrl(this.service, this.baseUrl, req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    return url;
  }

  private async send(req: TransportRequest, url: URL, token: string | undefined): Promise<Response> {
    const headers: Record<string, string> = { accept: req.binary ? '*/*' : 'application/json', ...req.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (req.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(req.body);
    } else if (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') {
      headers['content-length'] = '0';
    }
    const timeout = AbortSignal.timeout(this.o.timeoutMs ?? 30_000);
    const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
    return (this.o.fetch ?? fetch)(url, { method: req.method, headers, body, signal, redirect: 'follow' });
  }

  private delayFor(res: Response, attempt: number): number {
    const asked = retryAfterMs(res.headers);
    if (asked !== undefined) return Math.min(asked, this.o.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs);
    return backoffDelay(attempt, this.random, this.o);
  }

  private async pause(req: TransportRequest, url: URL, attempt: number, delayMs: number): Promise<void> {
    this.emit({ type: 'retry', method: req.method, path: url.pathname, attempt, delayMs });
    await this.sleep(delayMs);
  }

  private emit(e: Omit<TransportEvent, 'service'>): void {
    this.o.onEvent?.({ service: this.service, ...e });
  }

  private async readResponse(req: TransportRequest, url: URL, res: Response): Promise<TransportResponse> {
    if (req.binary) {
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { status: res.status, headers: res.headers, body: undefined, bytes, url: new URL(res.url || url) };
    }
    return { status: res.status, headers: res.headers, body: await readBody(res), url };
  }

  private async statusError(c: Call, res: Response, outcomeUnknown: boolean, retriable: boolean): Promise<ServiceError> {
    const parsed = parseErrorBody(await readBody(res).catch(() => undefined));
    const correlationId = res.headers.get('x-correlating-operationid') ?? res.headers.get('x-ms-correlation-request-id') ?? undefined;
    const hint = res.status === 401 ? ` (check the credentials of service '${this.service}': MOOR_TOKEN, tokenEnv or tokenCommand)` : '';
    return new ServiceError({
      service: this.service, method: c.req.method, path: c.url.pathname, label: c.label, status: res.status,
      code: parsed.code,
      serviceMessage: redact((parsed.message ?? res.statusText) || 'request failed', c.token) + hint,
      requestId: parsed.requestId ?? requestIdOf(res.headers),
      correlationId: correlationId ?? undefined,
      outcomeUnknown,
      retriable: parsed.retriable ?? retriable,
    });
  }

  /** Nothing listens there (or the name does not resolve): said once, with the service and its address. */
  private unreachableError(c: Call, err: unknown): ServiceError {
    const what = `cannot reach service '${this.service}' at ${c.url.origin} (${unreachableReason(err)})`;
    return new ServiceError({ service: this.service, method: c.req.method, path: c.url.pathname, label: c.label, status: 0, serviceMessage: what, retriable: true });
  }

  private connectionError(c: Call, err: unknown, outcomeUnknown: boolean): ServiceError {
    const d = describeFetchFailure(err);
    const what = d.timeout ? `timed out after ${this.o.timeoutMs ?? 30_000} ms` : `connection failed (${d.code ?? redact(d.text, c.token)})`;
    return new ServiceError(
      { service: this.service, method: c.req.method, path: c.url.pathname, label: c.label, status: 0, serviceMessage: what, outcomeUnknown, retriable: true },
    );
  }
}

/** Removes our token and anything that looks like a bearer token from a text, in case a service echoes headers. */
export function redact(text: string, token: string | undefined): string {
  // A token too short to be a real credential would garble every message it occurs in.
  const hidden = token && token.length >= 8 ? text.split(token).join('(hidden)') : text;
  return hidden.replace(/Bearer\s+[A-Za-z0-9\-._~+/=]+/gi, 'Bearer (hidden)');
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The first request-identifying header present. */
export function requestIdOf(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const v = headers.get(name);
    if (v) return v;
  }
  return undefined;
}
