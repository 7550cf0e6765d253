// The official clients address ARM provider namespaces by the real brand word. With a brand word
// set, the local cloud keeps the seeds' `Vendor` inside (routes, stored data) and translates at its
// edge: paths and request bodies in, answers out, so every namespace and type it names (ids,
// `type`, polling and paging URLs, a name-availability `type`) follows the brand word.
import { VENDOR } from './services/arm/vendor.js';
import type { LocalResponse } from './types.js';

/** A brand word is one word of letters and digits, e.g. Microsoft. */
export const BRAND_WORD = /^[A-Za-z][A-Za-z0-9]{0,39}$/;

/** The path with `<brand>.<Namespace>` segments written as `Vendor.<Namespace>`; unchanged without a brand. */
export function routedPath(pathname: string, brand: string | undefined): string {
  if (!brand) return pathname;
  const prefix = `${brand.toLowerCase()}.`;
  return pathname
    .split('/')
    .map((segment) => (segment.toLowerCase().startsWith(prefix) && segment.length > prefix.length ? `${VENDOR}.${segment.slice(prefix.length)}` : segment))
    .join('/');
}

/** A request body with the brand's namespaces written as `Vendor`; unchanged without a brand. */
export function unbrandedBody(body: unknown, brand: string | undefined): unknown {
  return brand ? rebrand(body, namespaceRewriter(brand, VENDOR)) : body;
}

/** An answer with `Vendor` namespaces written with the brand word (body and URL headers); unchanged without a brand. */
export function brandedResponse(response: LocalResponse, brand: string | undefined): LocalResponse {
  if (!brand) return response;
  const rewrite = namespaceRewriter(VENDOR, brand);
  const headers = response.headers ? Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k, rewrite(v)])) : undefined;
  const body = Buffer.isBuffer(response.body) || response.body instanceof Uint8Array ? response.body : rebrand(response.body, rewrite);
  return { ...response, ...(headers ? { headers } : {}), body };
}

/**
 * Rewrites namespaces of `from` as `to` in one string: a `/providers/<from>.X` segment (ids,
 * URLs) and a resource type `<from>.X/type` at the start of the string or of a quoted or
 * spaced word (a `type` field, an error message naming it), matched ignoring case.
 */
function namespaceRewriter(from: string, to: string): (text: string) => string {
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const segment = new RegExp(`/providers/${escaped}\\.(?=[A-Za-z])`, 'gi');
  const type = new RegExp(`(^|['"\\s(])${escaped}\\.(?=[A-Za-z]+/)`, 'gi');
  return (text) => (text.includes('.') ? text.replace(segment, `/providers/${to}.`).replace(type, `$1${to}.`) : text);
}

/** Every string and object key of a JSON value passed through `rewrite`. */
function rebrand(value: unknown, rewrite: (text: string) => string): unknown {
  if (typeof value === 'string') return rewrite(value);
  if (Array.isArray(value)) return value.map((v) => rebrand(v, rewrite));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [rewrite(k), rebrand(v, rewrite)]));
  }
  return value;
}
