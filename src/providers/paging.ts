// Follows every page of a listing: nextLink (ARM, billing), continuationUri/Token (Fabric, connector).
import { expectArray, expectObject, invalidAnswer } from './answer-shape.js';
import type { RequestSender, TransportRequest, TransportResponse } from './transport.js';

/** Checks one item of a page (throws invalidAnswer with the page's context). */
export type ItemCheck = (item: unknown, page: TransportResponse, index: number) => void;

/** A page's items: the body must be an object holding an array in `field`, never "no items" by default. */
function items<T>(res: TransportResponse, field: string, check: ItemCheck | undefined): T[] {
  const list = expectArray(res, expectObject(res, res.body, 'a page of a listing'), field);
  if (check) list.forEach((item, i) => check(item, res, i));
  return list as T[];
}

function text(body: unknown, field: string): string | undefined {
  const v = (body as Record<string, unknown> | undefined)?.[field];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/**
 * Guards a listing: more pages than the transport's maxPages, or a link or token seen before
 * (a loop), is an error naming the service, never a list silently cut short.
 */
class PageGuard {
  private readonly seen = new Set<string>();
  private pages = 0;

  constructor(private readonly t: RequestSender) {}

  next(res: TransportResponse, link: string): void {
    const max = this.t.limits.maxPages;
    if (++this.pages >= max) throw invalidAnswer(res, `the listing has more than ${max} pages; stopped rather than report a partial list (MOOR_MAX_PAGES)`);
    if (this.seen.has(link)) throw invalidAnswer(res, 'the listing points back to a page it already gave (a loop); stopped rather than report a partial list');
    this.seen.add(link);
  }
}

/** GETs the first page, then each absolute `nextLink` (kept on the endpoint's origin); concatenates `value`. */
export async function listByNextLink<T>(transport: RequestSender, first: TransportRequest, check?: ItemCheck): Promise<T[]> {
  const out: T[] = [];
  const guard = new PageGuard(transport);
  let req: TransportRequest | undefined = first;
  while (req) {
    const res = await transport.request(req);
    out.push(...items<T>(res, 'value', check));
    const next = text(res.body, 'nextLink') ?? text(res.body, '@odata.nextLink');
    if (next) guard.next(res, next);
    // The link carries its own query (api-version, skip tokens): do not add ours again.
    req = next ? { method: 'GET', path: next, label: first.label, continues: true } : undefined;
  }
  return out;
}

/**
 * Continuation paging: follows `continuationUri` when given (absolute, same origin), otherwise
 * repeats the first request with `continuationToken`; `field` names the array of each page.
 */
export async function listByContinuation<T>(transport: RequestSender, first: TransportRequest, field = 'value', check?: ItemCheck): Promise<T[]> {
  const out: T[] = [];
  const guard = new PageGuard(transport);
  let req: TransportRequest | undefined = first;
  while (req) {
    const res = await transport.request(req);
    out.push(...items<T>(res, field, check));
    const uri = text(res.body, 'continuationUri');
    const token = text(res.body, 'continuationToken');
    if (uri || token) guard.next(res, uri ?? `token:${token}`);
    if (uri) req = { method: 'GET', path: uri, label: first.label, headers: first.headers, continues: true };
    else if (token) req = { ...first, query: { ...first.query, continuationToken: token }, continues: true };
    else req = undefined;
  }
  return out;
}
