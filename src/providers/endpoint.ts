// Service base addresses: plain http only on loopback, and absolute paging/polling URLs kept on the endpoint's origin.
import { UserError } from '../core/diagnostics.js';
import type { ServiceName } from '../core/services.js';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

/** Whether a URL host is a loopback address (127.0.0.0/8, localhost, ::1). */
export function isLoopback(hostname: string): boolean {
  if (LOOPBACK_HOSTS.has(hostname.toLowerCase())) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Parses and checks a configured base URL; a UserError for a bad one or for http:// off loopback. */
export function checkEndpoint(service: ServiceName, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UserError(`endpoint of service '${service}' is not a valid URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UserError(`endpoint of service '${service}' must use https:// (got ${url.protocol})`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new UserError(`endpoint of service '${service}' uses plain http:// for ${url.hostname}; only loopback addresses may, use https://`);
  }
  if (url.username || url.password) {
    throw new UserError(`endpoint of service '${service}' must not carry credentials in the URL`);
  }
  return url;
}

/**
 * The absolute URL of a request: a path (with optional query) is appended to the base;
 * an absolute URL (a nextLink, a polling URL) must be on the base's origin, or it is refused.
 */
export function resolveUrl(service: ServiceName, base: URL, pathOrUrl: string): URL {
  if (/^https?:\/\//i.test(pathOrUrl)) {
    const url = new URL(pathOrUrl);
    if (url.origin !== base.origin) {
      throw new UserError(
        `service '${service}' pointed to ${url.origin}, which is not its configured endpoint ${base.origin}; refusing to send credentials there`,
      );
    }
    return url;
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const rel = pathOrUrl.startsWith('/') ? pathOrUrl : `/${pathOrUrl}`;
  return new URL(`${base.origin}${prefix}${rel}`);
}
