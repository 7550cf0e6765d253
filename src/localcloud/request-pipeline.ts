// One request through the local cloud: route, auth, throttling, faults, body, handler, answer.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brandedResponse, routedPath, unbrandedBody } from './brand-word.js';
import type { DataStore } from './data-store.js';
import { planFault, type Fault } from './faults.js';
import { parseJsonBody, readBody, sendResponse, type BodyResult } from './http-io.js';
import type { ResolvedOptions } from './options.js';
import { RateLimiter, requestClass } from './rate-limiter.js';
import { RateLimitMeter } from './rate-limit-meter.js';
import type { RequestLog } from './request-log.js';
import { createTokenCheck } from './token-check.js';
import type { RouteMatch, Router } from './router.js';
import type { LocalRequest, LocalResponse, LocalService, Route, ServiceContext } from './types.js';

export interface Pipeline {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** Why a request stops before its handler: an error answer, or a dropped connection. */
type Refusal = { status: number; code: string; message: string; headers?: Record<string, string> } | 'drop';

type Found = Extract<RouteMatch, { kind: 'found' | 'method-not-allowed' }>;

export function createPipeline(router: Router, store: DataStore, options: ResolvedOptions, fallbackBase: () => string, log?: RequestLog): Pipeline {
  const limiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
  const meter = new RateLimitMeter();
  const checkToken = createTokenCheck(options);

  /** Auth, method, throttling and injected faults, in the order a real front door applies them. */
  function gate(req: IncomingMessage, url: URL, method: string, match: Found, headers: Record<string, string>): Refusal | undefined {
    const anonymous = match.kind === 'found' && match.route.anonymous?.(url, match.params) === true;
    const verdict = anonymous ? 'valid' : checkToken(req.headers.authorization);
    if (verdict !== 'valid') {
      const expired = verdict === 'expired';
      return {
        status: 401,
        code: expired ? 'ExpiredAuthenticationToken' : 'InvalidAuthenticationToken',
        message: expired ? 'The access token has expired.' : 'The access token is missing or invalid.',
        headers: { 'www-authenticate': `Bearer error="invalid_token"${expired ? ', error_description="The access token expired"' : ''}` },
      };
    }
    if (match.kind === 'method-not-allowed') {
      return {
        status: 405,
        code: 'MethodNotAllowed',
        message: `The method ${method} is not allowed on this resource.`,
        headers: { allow: match.allow.join(', ') },
      };
    }
    return throttle(match.service, method, headers, url);
  }

  function throttle(service: LocalService, method: string, headers: Record<string, string>, url: URL): Refusal | undefined {
    const cls = requestClass(method);
    if (!limiter) {
      // ARM counts per subscription (SERVICES.md): each subscription has its own buckets.
      const subscription = /^\/subscriptions\/([^/]+)/i.exec(url.pathname)?.[1]?.toLowerCase() ?? '';
      if (service.name === 'arm')
        headers[`x-ms-ratelimit-remaining-subscription-${cls}`] = String(meter.remainingAfter(`${service.name}/${subscription}`, cls));
      return undefined;
    }
    const admission = limiter.admit(service.name, cls);
    if (service.name === 'arm') headers[`x-ms-ratelimit-remaining-subscription-${cls}`] = String(admission.remaining);
    if (admission.admitted) return undefined;
    return {
      status: 429,
      code: 'TooManyRequests',
      headers: { 'retry-after': String(admission.retryAfterSeconds) },
      message: 'The request was throttled: too many requests. Retry after the number of seconds in Retry-After.',
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const base = req.headers.host ? `${options.tls ? 'https' : 'http'}://${req.headers.host}` : fallbackBase();
    const url = new URL(req.url ?? '/', base);
    const method = (req.method ?? 'GET').toUpperCase();
    log?.record(req, res, method, url.pathname, requestId);
    const body = await readBody(req);
    if (options.latencyMs > 0) await sleep(options.latencyMs);

    const match = router.match(method, routedPath(url.pathname, options.brandWord));
    if (match.kind === 'not-found') {
      sendResponse(res, ...notFoundAnswer(router, method, url.pathname, requestId));
      return;
    }
    const service = match.service;
    const headers = { ...echoedClientIds(req), ...(service.responseHeaders?.(requestId) ?? {}) };
    const refuse = (r: Refusal): void => {
      if (r === 'drop') req.socket.destroy();
      else sendResponse(res, { status: r.status, headers: r.headers, body: service.errorBody(r.status, r.code, r.message, requestId) }, headers);
    };

    const refusal = gate(req, url, method, match, headers);
    if (refusal) {
      refuse(refusal);
      return;
    }
    if (match.kind !== 'found') return; // unreachable: gate refuses a wrong method
    const faults = planFault(options.failRate, match.route.faultAfterCommit === true, options.random);
    if (faults.before) {
      refuse(faultRefusal(faults.before, options.faultRetryAfterSeconds));
      return;
    }
    const request = toLocalRequest(req, method, url, match.params, body);
    if ('status' in request) {
      refuse(request);
      return;
    }

    const ctx = serviceContext(store, service, options, base, requestId);
    const response = await runHandler(match.route, { ...request, body: unbrandedBody(request.body, options.brandWord) }, ctx, service);
    if (faults.dropAfter) {
      refuse('drop');
      return;
    }
    sendResponse(res, brandedResponse(response, options.brandWord), headers);
  }

  return { handle };
}

/** Real services echo the id a client sends to correlate its own logs. */
function echoedClientIds(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['x-ms-client-request-id', 'client-request-id']) {
    const value = req.headers[name];
    if (typeof value === 'string' && /^[\w.:-]{1,200}$/.test(value)) out[name] = value;
  }
  return out;
}

function toLocalRequest(
  req: IncomingMessage,
  method: string,
  url: URL,
  params: Record<string, string>,
  body: BodyResult,
): LocalRequest | Exclude<Refusal, 'drop'> {
  if (!body.ok) return { status: 413, code: 'RequestEntityTooLarge', message: 'The request body is too large.' };
  const parsed = parseJsonBody(body.raw, req.headers['content-type']);
  if (!parsed.ok) return { status: 400, code: 'InvalidRequestContent', message: parsed.message };
  return { method, url, headers: req.headers, params, body: parsed.value, rawBody: body.raw };
}

function serviceContext(store: DataStore, service: LocalService, options: ResolvedOptions, baseUrl: string, requestId: string): ServiceContext {
  return {
    data: store.dataFor(service.name),
    save: () => store.save(),
    baseUrl,
    requestId,
    now: options.now,
    provisioningMs: options.provisioningMs,
    operationPhaseMs: options.operationPhaseMs,
    rateWindowMs: options.rateWindowMs,
  };
}

async function runHandler(route: Route, req: LocalRequest, ctx: ServiceContext, service: LocalService): Promise<LocalResponse> {
  try {
    return await route.handler(req, ctx);
  } catch (err) {
    // A bug in a service: say where, never the body (it may hold secrets).
    process.stderr.write(`local-cloud: ${req.method} ${req.url.pathname} failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return { status: 500, body: service.errorBody(500, 'InternalServerError', 'The server encountered an internal error.', ctx.requestId) };
  }
}

function faultRefusal(fault: Fault, retryAfterSeconds: number): Refusal {
  if (fault.kind === 'drop') return 'drop';
  if (fault.kind === 'throttle') {
    return {
      status: 429,
      code: 'TooManyRequests',
      message: 'The request was throttled (injected fault). Retry after the number of seconds in Retry-After.',
      headers: { 'retry-after': String(retryAfterSeconds) },
    };
  }
  return { status: fault.status, code: fault.code, message: fault.message };
}

/** A 404 in the shape of the service the path is nearest to (as each real front door answers), else neutral. */
function notFoundAnswer(router: Router, method: string, path: string, requestId: string): [LocalResponse, Record<string, string>] {
  const service = router.nearestService(path);
  if (!service) return [neutralNotFound(method, path, requestId), {}];
  const body = service.errorBody(404, 'NotFound', `No ${service.name} operation matches ${method} ${path}.`, requestId);
  return [{ status: 404, body }, service.responseHeaders?.(requestId) ?? {}];
}

function neutralNotFound(method: string, path: string, requestId: string): LocalResponse {
  return { status: 404, body: { error: { code: 'NotFound', message: `No local cloud operation matches ${method} ${path}.`, requestId } } };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
