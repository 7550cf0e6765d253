// ARM list paging: a page of `value` and an absolute `nextLink` carrying a skip token.
import type { LocalRequest, ServiceContext } from '../../types.js';

const SKIP_TOKEN = '$skipToken';

export interface Page<T> {
  value: T[];
  nextLink?: string;
}

/** The page the request's skip token points at; the next link keeps every other query parameter. */
export function pageOf<T>(items: readonly T[], req: LocalRequest, ctx: ServiceContext, pageSize: number): Page<T> {
  const skip = Math.max(0, Number.parseInt(req.url.searchParams.get(SKIP_TOKEN) ?? '0', 10) || 0);
  const value = items.slice(skip, skip + pageSize);
  if (skip + pageSize >= items.length) return { value };
  const next = new URL(req.url.pathname + req.url.search, ctx.baseUrl);
  next.searchParams.set(SKIP_TOKEN, String(skip + pageSize));
  return { value, nextLink: next.toString() };
}
