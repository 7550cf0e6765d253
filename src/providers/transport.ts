// One HTTP transport for every service: auth, timeouts, retries with backoff, Retry-After, errors as values.
import type { AnswerEvent, EventSink } from '../core/events.js';
import type { SecretRegistry } from '../core/masker.js';
import type { ServiceName } from '../core/services.js';
import { invalidAnswer, parseJsonAnswer } from './answer-shape.js';
import { parseErrorBody } from './error-body.js';
import { resolveUrl } from './endpoint.js';
import { defaultFetch, type AnswerHeaders, type FetchAnswer } from './http-fetch.js';
import { followRedirects, RefusedUrlError, type FollowResult, type Hop } from './redirects.js';
import { BodyTooLargeError, DEFAULT_LIMITS, MAX_ERROR_BODY_BYTES, readLimited, type ResponseLimits } from './response-limits.js';
import { ServiceError, type ServiceErrorInfo } from './service-error.js';
import type { Answer, RequestScheduler } from './request-scheduler.js';
import { InterruptedWaitError } from './request-context.js';
import type { RequestContext } from '../core/request-context.js';
import { interruption } from '../core/interrupted.js';
import { sleep, waitUnlessAborted, type Sleep } from '../core/abortable-wait.js';
import type { TokenSource } from './token-source.js';
import {
  DEFAULT_RETRY,
  RETRY_STATUSES,
  backoffDelay,
  describeFetchFailure,
  isConnectionFailure,
  isUnreachable,
  neverSent,
  retryAfterMs,
  unreachableReason,
  type RetryOptions,
} from './retry-policy.js';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

/** The operation a poll wait is for (long-running.ts). */
export interface PollTarget {
  readonly method: string;
  /** URL path without the query string. */
  readonly path: string;
  /** Short target name, as in error messages. */
  readonly label: string;
}

export interface TransportOptions extends RetryOptions, ResponseLimits {
  readonly service: ServiceName;
  readonly baseUrl: URL;
  readonly token: TokenSource;
  /** Per-attempt timeout in ms (default 30 000). */
  readonly timeoutMs?: number;
  /** Statuses retried with backoff (default 429, 500, 502, 503, 504). */
  readonly retryStatuses?: readonly number[];
  /** Where answers, retries, throttles (429) and poll waits are told (core/events.ts); no header, token or body is in them. */
  readonly events?: EventSink;
  /** Waits between attempts and polls; may end early when given an aborted signal (tests pass a fake). */
  readonly sleep?: Sleep;
  readonly random?: () => number;
  /** Default: node:http(s) (http-fetch.ts), or the process's fetch when something replaced it. */
  readonly fetch?: typeof fetch;
  /** Called before every attempt of a request that is not a GET; throwing stops it unsent (a run that lost its state lock). */
  readonly beforeWrite?: () => Promise<void>;
  /** Paces and orders the requests of every service of a run (request-scheduler.ts). */
  readonly scheduler?: RequestScheduler;
  /** The run's masker: each token used is registered, so no output of the run shows it. */
  readonly secrets?: SecretRegistry;
  /** The User-Agent of every request (services log it: a replica of moor watch names itself and its stack's lease). */
  readonly userAgent?: () => string;
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
  /** A later page of a listing begun: the scheduler sends it before new requests, so listings end in the order they began. */
  readonly continues?: boolean;
}

/** A response the caller asked for (2xx or an accepted status), naming the request for answer checks. */
export interface TransportResponse {
  readonly service: ServiceName;
  readonly method: string;
  readonly label: string;
  readonly status: number;
  readonly headers: AnswerHeaders;
  /** Parsed JSON (its content type checked), or undefined when empty or binary. */
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
  /** The step the request belongs to (priority, interruption), for the scheduler. */
  readonly context?: RequestContext;
}

/** The answer, or a wait before the next attempt with what went wrong in this one. */
type Attempt =
  { readonly done: true; readonly response: TransportResponse } | { readonly done: false; readonly delayMs: number; readonly failure: ServiceErrorInfo };

const REQUEST_ID_HEADERS = ['x-ms-request-id', 'request-id', 'x-ms-correlation-request-id', 'requestid', 'x-correlating-operationid'];

/** What a service client needs of its transport: where it sends, and sending (a step's clients attribute it to the step). */
export type RequestSender = Pick<Transport, 'service' | 'baseUrl' | 'limits' | 'request' | 'wait'>;

/** Sends requests to one service. Errors are ServiceError values; nothing logs headers. */
export class Transport {
  readonly service: ServiceName;
  readonly baseUrl: URL;
  private readonly o: TransportOptions;
  private readonly sleep: Sleep;
  private readonly random: () => number;

  constructor(options: TransportOptions) {
    this.o = options;
    this.service = options.service;
    this.baseUrl = options.baseUrl;
    this.sleep = options.sleep ?? sleep;
    this.random = options.random ?? Math.random;
  }

  /** The limits in force, defaults filled in (paging reads maxPages). */
  get limits(): Required<ResponseLimits> {
    return {
      maxBodyBytes: this.o.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes,
      maxPages: this.o.maxPages ?? DEFAULT_LIMITS.maxPages,
      maxRedirects: this.o.maxRedirects ?? DEFAULT_LIMITS.maxRedirects,
      maxRequestMs: this.o.maxRequestMs ?? DEFAULT_LIMITS.maxRequestMs,
    };
  }

  /**
   * Waits as the transport waits between retries (injectable in tests); a `poll` wait is told first (poll_wait).
   * With `context` (the step's), its address is on the event and its abort signal ends the wait early with InterruptedWaitError.
   */
  async wait(ms: number, poll?: PollTarget, context?: RequestContext): Promise<void> {
    if (poll)
      this.o.events?.({ type: 'poll_wait', service: this.service, method: poll.method, path: poll.path, label: poll.label, delayMs: ms, ...stepOf(context) });
    if (!(await waitUnlessAborted(this.sleep, ms, context?.signal))) throw new InterruptedWaitError(poll?.label ?? this.service);
  }

  /**
   * Sends one request, retrying what is safe to retry; resolves with the answer or throws ServiceError.
   * A 401 renews the token once and sends the request again: a refused request was not executed.
   * `context`: the step the request belongs to, for the request scheduler.
   */
  async request(req: TransportRequest, context?: RequestContext): Promise<TransportResponse> {
    const token = await this.o.token();
    try {
      return await this.requestWith(req, token, context);
    } catch (err) {
      const renewed = err instanceof ServiceError && err.status === 401 ? await this.o.token.renew?.(token) : undefined;
      if (renewed === undefined) throw err;
      return this.requestWith(req, renewed, context);
    }
  }

  private async requestWith(req: TransportRequest, token: string | undefined, context?: RequestContext): Promise<TransportResponse> {
    const url = this.urlOf(req);
    const call: Call = {
      req,
      url,
      label: req.label ?? url.pathname,
      token,
      idempotent: req.idempotent ?? req.method !== 'POST',
      context,
    };
    this.o.secrets?.register(call.token);
    const maxAttempts = Math.max(1, this.o.maxAttempts ?? DEFAULT_RETRY.maxAttempts);
    // Time spent: attempts by the clock, waits as asked (the sleep may be a test's, which takes none).
    let spent = 0;
    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      const outcome = await this.attempt(call, attempt, attempt >= maxAttempts, this.limits.maxRequestMs - spent);
      if (outcome.done) return outcome.response;
      spent += Date.now() - started;
      checkWait(outcome, spent, this.limits.maxRequestMs);
      spent += outcome.delayMs;
      await this.pause(call, attempt, outcome.delayMs, outcome.failure);
    }
  }

  /** One attempt: the answer, a wait before the next attempt, or a thrown ServiceError. */
  private async attempt(c: Call, attempt: number, last: boolean, remainingMs: number): Promise<Attempt> {
    let release: (() => void) | undefined;
    try {
      return await this.answerOf(c, attempt, last, remainingMs, (r) => (release = r));
    } finally {
      release?.();
    }
  }

  /** The attempt itself; `held` receives what ends its timer once its answer is read. */
  private async answerOf(c: Call, attempt: number, last: boolean, remainingMs: number, held: (release: () => void) => void): Promise<Attempt> {
    let res: FetchAnswer;
    let finalUrl: URL;
    try {
      const sent = await this.send(c.req, c.url, c.token, remainingMs, c.context);
      held(sent.release);
      ({ response: res, url: finalUrl } = sent);
      this.o.events?.({
        type: 'request_answered',
        ...this.callOf(c),
        status: res.status,
        attempt,
        ...stepOf(c.context),
      });
      // The body is read inside the try: a connection that breaks mid-body is a lost answer too.
      if (res.ok || c.req.accept?.includes(res.status)) {
        return { done: true, response: await this.readResponse(c, finalUrl, res) };
      }
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      if (err instanceof RefusedUrlError) throw this.refusedError(c, err);
      // A read cut short after the step's interruption (moor watch's SIGTERM, Ctrl-C) lost nothing: the next plan reads again.
      if (isRead(c.req.method) && c.context?.signal?.aborted && isConnectionFailure(err)) {
        throw interruption(
          new ServiceError({
            ...this.connectionInfo(c, err, false),
            serviceMessage: 'interrupted while waiting for the answer (a read: nothing changed; the next plan reads again)',
          }),
        );
      }
      // The caller gave up, or fetch itself failed (a bug): nothing to retry.
      if (c.req.signal?.aborted || !isConnectionFailure(err)) throw err;
      if (isUnreachable(err, c.url)) throw this.unreachableError(c, err);
      const safe = c.idempotent || neverSent(err);
      const failure = this.connectionInfo(c, err, !safe);
      if (!safe || last) throw new ServiceError(failure);
      return { done: false, delayMs: backoffDelay(attempt, this.random, this.o), failure };
    }
    const retryable = (this.o.retryStatuses ?? RETRY_STATUSES).includes(res.status);
    // A 429 means the request was refused, not executed: even a POST may go again.
    const safe = c.idempotent || res.status === 429;
    const failure = await this.statusInfo(c, res, retryable && !safe, retryable);
    if (!retryable || !safe || last) throw new ServiceError(failure);
    return { done: false, delayMs: this.delayFor(res, attempt, failure), failure };
  }

  private urlOf(req: TransportRequest): URL {
    const url = resolveUrl(this.service, this.baseUrl, req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    return url;
  }

  private async send(
    req: TransportRequest,
    url: URL,
    token: string | undefined,
    remainingMs: number,
    context?: RequestContext,
  ): Promise<FollowResult & { release: () => void }> {
    const headers: Record<string, string> = { accept: req.binary ? '*/*' : 'application/json', ...req.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    if (this.o.userAgent) headers['user-agent'] = this.o.userAgent();
    let body: string | undefined;
    if (req.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(req.body);
    } else if (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') {
      headers['content-length'] = '0';
    }
    const go = async (): Promise<FollowResult & Answer & { release: () => void }> => {
      // Checked as it is sent, not before it waits in the scheduler's queue: the lock may be lost meanwhile.
      if (req.method !== 'GET') await this.o.beforeWrite?.();
      // One timer for the attempt, its redirects and its body: a body that drips is cut off too.
      // It starts when the request is sent, not while it waits in the scheduler's queue.
      // Once the step is interrupted, a read has READ_GRACE_MS left (a hung service would hold the stop for the whole
      // timeout); a write in flight is waited for, as its answer says whether the change was made.
      const timeout = attemptTimer(Math.max(1, Math.min(this.o.timeoutMs ?? 30_000, remainingMs)), isRead(req.method) ? context?.signal : undefined);
      const signal = req.signal ? AbortSignal.any([timeout.signal, req.signal]) : timeout.signal;
      const fetchOnce = (hop: Hop): Promise<FetchAnswer> =>
        (this.o.fetch ?? defaultFetch())(hop.url, { method: hop.method, headers, body: hop.body, signal, redirect: 'manual' });
      try {
        const result = await followRedirects({ method: req.method, url, body }, fetchOnce, this.limits.maxRedirects);
        return { ...result, status: result.response.status, headers: result.response.headers, release: timeout.release };
      } catch (err) {
        timeout.release();
        throw err;
      }
    };
    return this.o.scheduler ? this.o.scheduler.run(this.service, req.method, url, go, context, req.continues === true) : go();
  }

  /** The wait before the next attempt; a Retry-After past the ceiling fails the request at once. */
  private delayFor(res: FetchAnswer, attempt: number, failure: ServiceErrorInfo): number {
    const asked = retryAfterMs(res.headers);
    const ceiling = this.o.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs;
    if (asked !== undefined && asked > ceiling) {
      throw new ServiceError({
        ...failure,
        serviceMessage: `${failure.serviceMessage}; the service asked to wait ${seconds(asked)} s before trying again, longer than the ${seconds(ceiling)} s moor waits (MOOR_MAX_RETRY_AFTER_SECONDS): gave up at once`,
      });
    }
    return asked ?? backoffDelay(attempt, this.random, this.o);
  }

  /** Which request an event or an error is about: the service, the method, the path (no query) and the step's label. */
  private callOf(c: Call): Pick<AnswerEvent, 'service' | 'method' | 'path' | 'label'> {
    return { service: this.service, method: c.req.method, path: c.url.pathname, label: c.label };
  }

  private async pause(c: Call, attempt: number, delayMs: number, failure: ServiceErrorInfo): Promise<void> {
    // A 429 is throttling; any other status (or none: no answer came) a retry.
    const status = failure.status || undefined;
    this.o.events?.({
      type: status === 429 ? 'throttled' : 'request_retried',
      ...this.callOf(c),
      ...(status !== undefined ? { status } : {}),
      attempt,
      delayMs,
      ...stepOf(c.context),
    });
    // Interrupted: the last attempt's answer is what is known (an unknown outcome stays unknown); no new attempt.
    if (!(await waitUnlessAborted(this.sleep, delayMs, c.context?.signal ?? c.req.signal))) {
      throw interruption(new ServiceError({ ...failure, serviceMessage: `${failure.serviceMessage}; interrupted before trying again` }));
    }
  }

  /** Reads the body within the size limit; a body must be JSON (unless binary) or it is an error. */
  private async readResponse(c: Call, url: URL, res: FetchAnswer): Promise<TransportResponse> {
    const head = { service: this.service, method: c.req.method, label: c.label, status: res.status, headers: res.headers, url };
    let bytes: Uint8Array;
    try {
      bytes = await readLimited(res, this.limits.maxBodyBytes);
    } catch (err) {
      if (err instanceof BodyTooLargeError) throw invalidAnswer(head, `${err.message} (MOOR_MAX_BODY_MB)`);
      // Headers came in time but the body did not: a slow, dripping answer is not tried again.
      if (describeFetchFailure(err).timeout) throw invalidAnswer(head, `the answer did not finish within ${this.o.timeoutMs ?? 30_000} ms`);
      throw err;
    }
    if (c.req.binary) return { ...head, body: undefined, bytes };
    const text = new TextDecoder().decode(bytes);
    // An accepted error status (a 404 meaning "gone") must be the service's JSON too, not a proxy's page.
    const json = parseJsonAnswer(text, res.headers.get('content-type'));
    if (!json.ok) throw invalidAnswer(head, json.problem);
    return { ...head, body: json.value };
  }

  private refusedError(c: Call, err: RefusedUrlError): ServiceError {
    return new ServiceError({
      ...this.callOf(c),
      status: err.status,
      code: 'RedirectRefused',
      serviceMessage: err.message,
      // A refused redirect came from the service after it got the request: a write may have happened.
      outcomeUnknown: err.status !== 0 && c.req.method !== 'GET',
    });
  }

  private async statusInfo(c: Call, res: FetchAnswer, outcomeUnknown: boolean, retriable: boolean): Promise<ServiceErrorInfo> {
    const text = await readLimited(res, MAX_ERROR_BODY_BYTES, true).then(
      (b) => new TextDecoder().decode(b),
      () => '',
    );
    const parsed = parseErrorBody(parseLoose(text));
    const correlationId = res.headers.get('x-correlating-operationid') ?? res.headers.get('x-ms-correlation-request-id') ?? undefined;
    const hint = res.status === 401 ? ` (check the credentials of service '${this.service}': MOOR_TOKEN, tokenEnv or tokenCommand)` : '';
    return {
      ...this.callOf(c),
      status: res.status,
      code: parsed.code,
      serviceMessage: redact((parsed.message ?? res.statusText) || 'request failed', c.token) + hint,
      requestId: parsed.requestId ?? requestIdOf(res.headers),
      correlationId: correlationId ?? undefined,
      outcomeUnknown,
      retriable: parsed.retriable ?? retriable,
    };
  }

  /** Nothing listens there (or the name does not resolve): said once, with the service and its address. */
  private unreachableError(c: Call, err: unknown): ServiceError {
    const what = `cannot reach service '${this.service}' at ${c.url.origin} (${unreachableReason(err)})`;
    return new ServiceError({
      ...this.callOf(c),
      status: 0,
      serviceMessage: what,
      retriable: true,
    });
  }

  private connectionInfo(c: Call, err: unknown, outcomeUnknown: boolean): ServiceErrorInfo {
    const d = describeFetchFailure(err);
    const what = d.timeout ? `timed out after ${this.o.timeoutMs ?? 30_000} ms` : `connection failed (${d.code ?? redact(d.text, c.token)})`;
    return {
      ...this.callOf(c),
      status: 0,
      serviceMessage: what,
      outcomeUnknown,
      retriable: true,
    };
  }
}

/**
 * The timeout of one attempt: its signal aborts with a TimeoutError, as AbortSignal.timeout's does,
 * but its timer is cleared once the answer is read (AbortSignal.timeout costs a transferable signal
 * per request and keeps its timer for the whole timeout).
 */
function attemptTimer(ms: number, interruption?: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
  timer.unref();
  // Interrupted: what is left of the attempt is at most READ_GRACE_MS (a read still answers, to record what a step's writes did).
  let grace: NodeJS.Timeout | undefined;
  const shorten = () => {
    grace = setTimeout(() => controller.abort(new DOMException('interrupted', 'AbortError')), Math.min(ms, READ_GRACE_MS));
    grace.unref();
  };
  if (interruption?.aborted) shorten();
  else interruption?.addEventListener('abort', shorten, { once: true });
  return {
    signal: controller.signal,
    release: () => {
      clearTimeout(timer);
      clearTimeout(grace);
      interruption?.removeEventListener('abort', shorten);
    },
  };
}

/** How long a read may still take once its step is interrupted (moor watch's SIGTERM, Ctrl-C). */
const READ_GRACE_MS = 2_000;

/** The address of the step a request belongs to, for its events; nothing when it belongs to none. */
function stepOf(context: RequestContext | undefined): { readonly address?: string } {
  return context?.address !== undefined ? { address: context.address } : {};
}

/** The next wait must fit in what is left of the request's time, or the request fails now with its last error. */
function checkWait(outcome: { readonly delayMs: number; readonly failure: ServiceErrorInfo }, spentMs: number, maxRequestMs: number): void {
  if (spentMs + outcome.delayMs <= maxRequestMs) return;
  const f = outcome.failure;
  throw new ServiceError({
    ...f,
    serviceMessage: `${f.serviceMessage}; gave up: trying again would take longer than the ${seconds(maxRequestMs)} s one request may take (MOOR_MAX_REQUEST_SECONDS)`,
  });
}

function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

/** Removes our token and anything that looks like a bearer token from a text, in case a service echoes headers. */
export function redact(text: string, token: string | undefined): string {
  // A token too short to be a real credential would garble every message it occurs in.
  const hidden = token && token.length >= 8 ? text.split(token).join('(hidden)') : text;
  return hidden.replace(/Bearer\s+[A-Za-z0-9\-._~+/=]+/gi, 'Bearer (hidden)');
}

/** An error body: its JSON when it parses, its text otherwise, undefined when empty. */
function parseLoose(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The first request-identifying header present. */
export function requestIdOf(headers: AnswerHeaders): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const v = headers.get(name);
    if (v) return v;
  }
  return undefined;
}

/** A request that changes nothing at the service: cutting it short loses no outcome. */
function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}
