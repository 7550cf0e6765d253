// Redirects as moor follows them: same origin and scheme only, a few hops, a write's method and body never changed.
import { isLoopback } from './endpoint.js';
import type { FetchAnswer } from './http-fetch.js';

/** One request on the wire: the redirect loop may change its URL, never its credentials' origin. */
export interface Hop {
  readonly method: string;
  readonly url: URL;
  readonly body: string | undefined;
}

export interface FollowResult {
  readonly response: FetchAnswer;
  /** The URL that gave the final answer. */
  readonly url: URL;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Why a request or a redirect is refused; the transport turns it into a ServiceError. */
export class RefusedUrlError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'RefusedUrlError';
  }
}

/** Plain http only to loopback addresses; nothing but http(s) at all. */
export function checkScheme(url: URL, status = 0): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new RefusedUrlError(`refusing to send a request to ${url.protocol} URL ${url.origin}`, status);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new RefusedUrlError(`refusing to send a request over plain http:// to ${url.host}; only loopback addresses may use http`, status);
  }
}

/**
 * Sends `first` through `fetchOnce` (which must not follow redirects itself) and follows
 * redirects on the same origin: a GET by any redirect status, any other method only by 307/308
 * (which keep method and body). Another origin or scheme, a write turned into a GET, or more than
 * `maxRedirects` hops throw RefusedUrlError; nothing is sent to the refused location.
 */
export async function followRedirects(first: Hop, fetchOnce: (hop: Hop) => Promise<FetchAnswer>, maxRedirects: number): Promise<FollowResult> {
  checkScheme(first.url);
  let hop = first;
  for (let hops = 0; ; hops++) {
    const response = await fetchOnce(hop);
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || location === null) return { response, url: hop.url };
    await response.body?.cancel().catch(() => undefined);
    const next = nextHop(hop, response.status, location, first.url);
    if (hops >= maxRedirects)
      throw new RefusedUrlError(`more than ${maxRedirects} redirects (last to ${next.url.origin}${next.url.pathname})`, response.status);
    hop = next;
  }
}

function nextHop(hop: Hop, status: number, location: string, origin: URL): Hop {
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new RefusedUrlError(`redirected to an invalid location ${JSON.stringify(location.slice(0, 200))}`, status);
  }
  if (url.origin !== origin.origin) {
    throw new RefusedUrlError(
      `redirected to ${url.origin}, which is not the configured endpoint ${origin.origin}; refusing to follow (nothing was sent there)`,
      status,
    );
  }
  checkScheme(url, status);
  if (hop.method === 'GET') return { method: 'GET', url, body: undefined };
  if (status === 307 || status === 308) return { ...hop, url };
  throw new RefusedUrlError(`a ${status} redirect would turn ${hop.method} into GET; refusing to follow`, status);
}
