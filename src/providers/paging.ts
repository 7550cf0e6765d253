// Follows every page of a listing: nextLink (ARM, billing), continuationUri/Token (Fabric, connector).
import type { Transport, TransportRequest } from './transport.js';

/** Upper bound on pages, so a service that loops its links cannot hang a run. */
const MAX_PAGES = 10_000;

function items<T>(body: unknown, field: string): T[] {
  const value = (body as Record<string, unknown> | undefined)?.[field];
  return Array.isArray(value) ? (value as T[]) : [];
}

function text(body: unknown, field: string): string | undefined {
  const v = (body as Record<string, unknown> | undefined)?.[field];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** GETs the first page, then each absolute `nextLink` (kept on the endpoint's origin); concatenates `value`. */
export async function listByNextLink<T>(transport: Transport, first: TransportRequest): Promise<T[]> {
  const out: T[] = [];
  let req: TransportRequest | undefined = first;
  for (let page = 0; req && page < MAX_PAGES; page++) {
    const res = await transport.request(req);
    out.push(...items<T>(res.body, 'value'));
    const next = text(res.body, 'nextLink') ?? text(res.body, '@odata.nextLink');
    // The link carries its own query (api-version, skip tokens): do not add ours again.
    req = next ? { method: 'GET', path: next, label: first.label } : undefined;
  }
  return out;
}

/**
 * Continuation paging: follows `continuationUri` when given (absolute, same origin), otherwise
 * repeats the first request with `continuationToken`; `field` names the array of each page.
 */
export async function listByContinuation<T>(transport: Transport, first: TransportRequest, field = 'value'): Promise<T[]> {
  const out: T[] = [];
  let req: TransportRequest | undefined = first;
  for (let page = 0; req && page < MAX_PAGES; page++) {
    const res = await transport.request(req);
    out.push(...items<T>(res.body, field));
    const uri = text(res.body, 'continuationUri');
    const token = text(res.body, 'continuationToken');
    if (uri) req = { method: 'GET', path: uri, label: first.label, headers: first.headers };
    else if (token) req = { ...first, query: { ...first.query, continuationToken: token } };
    else req = undefined;
  }
  return out;
}
