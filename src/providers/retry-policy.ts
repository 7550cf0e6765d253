// When to retry a request and how long to wait: exponential backoff with full jitter, Retry-After honoured.
import type { AnswerHeaders } from './http-fetch.js';

/** Tunables of the retry loop; all optional with the documented defaults. */
export interface RetryOptions {
  /** First backoff step in ms (default 200). */
  readonly baseDelayMs?: number;
  /** Largest backoff step in ms (default 10 000). */
  readonly maxDelayMs?: number;
  /** Total attempts including the first (default 6). */
  readonly maxAttempts?: number;
  /** Longest Retry-After we are willing to wait, in ms (default 120 000). */
  readonly maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY = { baseDelayMs: 200, maxDelayMs: 10_000, maxAttempts: 8, maxRetryAfterMs: 120_000 } as const;

/** Statuses that mean "try again later" for most services. */
export const RETRY_STATUSES: readonly number[] = [429, 500, 502, 503, 504];

/** Full jitter: a random wait between 0 and min(cap, base * 2^(attempt-1)). attempt is 1-based. */
export function backoffDelay(attempt: number, random: () => number, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const cap = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The wait a response asks for, in ms: `x-ms-retry-after-ms`, or `Retry-After` as seconds or
 * an HTTP date. undefined when absent or unreadable.
 */
export function retryAfterMs(headers: AnswerHeaders, now: () => number = Date.now): number | undefined {
  const ms = headers.get('x-ms-retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  const ra = headers.get('retry-after');
  if (ra === null) return undefined;
  const text = ra.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now());
}

/** Error codes and messages of fetch failures that mean the connection broke or timed out. */
const CONNECTION_CODES = [
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
];
const CONNECTION_TEXT = /socket hang up|fetch failed|failed to fetch|network|terminated|other side closed|timed? ?out|aborted/i;

/** Code or message of an error and its causes, for classifying and for messages (never headers). */
export function describeFetchFailure(err: unknown): { code?: string; text: string; timeout: boolean } {
  const parts: string[] = [];
  let code: string | undefined;
  let timeout = false;
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 4; depth++) {
    const e = cur as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
    if (e.name === 'TimeoutError') timeout = true;
    if (typeof e.code === 'string' && !code) code = e.code;
    if (typeof e.message === 'string' && e.message) parts.push(e.message);
    cur = e.cause;
  }
  return { code, text: parts.join(': ') || String(err), timeout };
}

/** Whether a thrown fetch failure is a broken connection or a timeout (worth retrying when safe). */
export function isConnectionFailure(err: unknown): boolean {
  const d = describeFetchFailure(err);
  return d.timeout || (d.code !== undefined && CONNECTION_CODES.includes(d.code)) || CONNECTION_TEXT.test(d.text);
}

/** The request never reached the server (nothing was executed), so even a POST may be sent again. */
export function neverSent(err: unknown): boolean {
  const code = describeFetchFailure(err).code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'UND_ERR_CONNECT_TIMEOUT';
}

/** Host names that are this machine: nothing listening there will start listening in a few seconds. */
function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/**
 * Whether a connection failure means the endpoint is unreachable rather than briefly away:
 * refused on this machine, or a name that does not resolve. Such a failure is not retried.
 */
export function isUnreachable(err: unknown, url: URL): boolean {
  const { code, text } = describeFetchFailure(err);
  if (code === 'ENOTFOUND' || /bad port/i.test(text)) return true;
  return code === 'ECONNREFUSED' && isLoopback(url);
}

/** `connection refused`, `host not found`: the words for an unreachable endpoint's failure. */
export function unreachableReason(err: unknown): string {
  const { code, text } = describeFetchFailure(err);
  if (/bad port/i.test(text)) return 'a port fetch refuses to use';
  return code === 'ENOTFOUND' ? 'host not found' : code === 'ECONNREFUSED' ? 'connection refused' : (code ?? 'unreachable');
}
