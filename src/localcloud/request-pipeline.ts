// One request through the local cloud: route, auth, throttling, faults, body, handler, answer.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DataStore } from './data-store.js';
import { planFault, type Fault } from './faults.js';
import { parseJsonBody, readBody, sendResponse } from './http-io.js';
import type { ResolvedOptions } from './options.js';
import { RateLimiter, requestClass } from './rate-limiter.js';
import type { Router } from './router.js';
import type { LocalResponse, LocalService, Route, ServiceContext } from './types.js';

export interface Pipeline {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function createPipeline(router: Router, store: DataStore, options: ResolvedOptions, fallbackBase: () => string): Pipeline {
  const limiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
  const expected = Buffer.from(`Bearer ${options.token}`);

  const authorized = (header: string | undefined): boolean => {
    const given = Buffer.from(header ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const base = req.headers.host ? `http://${req.headers.host}` : fallbackBase();
    const url = new URL(req.url ?? '/', base);
    const method = (req.method ?? 'GET').toUpperCase();
    const body = await readBody(req);
    if (options.latencyMs > 0) await sleep(options.latencyMs);

    const match = router.match(method, url.pathname);
    if (match.kind === 'not-found') {
      return sendResponse(res, neutralNotFound(method, url.pathname, requestId), {});
    }
    const service = match.service;
    const headers = service.responseHeaders?.(requestId) ?? {};
    const fail = (status: number, code: string, message: string, extra: Record<string, string> = {}): void =>
      sendResponse(res, { status, headers: extra, body: service.errorBody(status, code, message, requestId) }, headers);

    if (!authorized(req.headers.authorization)) {
      return fail(401, 'InvalidAuthenticationToken', 'The access token is missing or invalid.', { 'www-authenticate': 'Bearer error="invalid_token"' });
    }
    if (match.kind === 'method-not-allowed') {
      return fail(405, 'MethodNotAllowed', `The method ${method} is not allowed on this resource.`, { allow: match.allow.join(', ') });
    }
    if (limiter) {
      const cls = requestClass(method);
      const admission = limiter.admit(service.name, cls);
      if (service.name === 'arm') headers[`x-ms-ratelimit-remaining-subscription-${cls}`] = String(admission.remaining);
      if (!admission.admitted) {
        return fail(429, 'TooManyRequests', 'The request was throttled: too many requests. Retry after the number of seconds in Retry-After.',
          { 'retry-after': String(admission.retryAfterSeconds) });
      }
    }
    const faults = planFault(options.failRate, match.route.faultAfterCommit === true, options.random);
    if (faults.before) return injectFault(faults.before, req, fail);
    if (!body.ok) return fail(413, 'RequestEntityTooLarge', 'The request body is too large.');
    const parsed = parseJsonBody(body.raw, req.headers['content-type']);
    if (!parsed.ok) return fail(400, 'InvalidRequestContent', parsed.message);

    const ctx = serviceContext(store, service, options, base, requestId);
    const localReq = { method, url, headers: req.headers, params: match.params, body: parsed.value, rawBody: body.raw };
    const response = await runHandler(match.route, localReq, ctx, service);
    if (faults.dropAfter) {
      req.socket.destroy();
      return;
    }
    sendResponse(res, response, headers);
  }

  return { handle };
}

function serviceContext(store: DataStore, service: LocalService, options: ResolvedOptions, baseUrl: string, requestId: string): ServiceContext {
  return {
    data: store.dataFor(service.name),
    save: () => store.save(),
    baseUrl,
    requestId,
    now: options.now,
    provisioningMs: options.provisioningMs,
  };
}

async function runHandler(route: Route, req: Parameters<Route['handler']>[0], ctx: ServiceContext, service: LocalService): Promise<LocalResponse> {
  try {
    return await route.handler(req, ctx);
  } catch (err) {
    // A bug in a service: say where, never the body (it may hold secrets).
    process.stderr.write(`local-cloud: ${req.method} ${req.url.pathname} failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return { status: 500, body: service.errorBody(500, 'InternalServerError', 'The server encountered an internal error.', ctx.requestId) };
  }
}

function injectFault(fault: Fault, req: IncomingMessage, fail: (s: number, c: string, m: string, h?: Record<string, string>) => void): void {
  if (fault.kind === 'drop') {
    req.socket.destroy();
  } else if (fault.kind === 'throttle') {
    fail(429, 'TooManyRequests', 'The request was throttled (injected fault). Retry after the number of seconds in Retry-After.', { 'retry-after': '1' });
  } else {
    fail(fault.status, fault.code, fault.message);
  }
}

function neutralNotFound(method: string, path: string, requestId: string): LocalResponse {
  return { status: 404, body: { error: { code: 'NotFound', message: `No local cloud operation matches ${method} ${path}.`, requestId } } };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
