// The transport's limits from the environment (MOOR_MAX_*), and the one-line notices of long waits.
import { UserError } from '../core/diagnostics.js';
import type { EventSink, MoorEvent } from '../core/events.js';

/** Limits a run may set; unset ones keep the transport's defaults (docs/configuration.md, "What moor believes of a service, and its limits"). */
export interface TransportSettings {
  readonly maxBodyBytes?: number;
  readonly maxPages?: number;
  readonly maxRequestMs?: number;
  readonly maxRetryAfterMs?: number;
}

/** Waits at least this long are shown; shorter ones are routine. */
export const NOTICE_MIN_WAIT_MS = 3_000;

/** MOOR_MAX_BODY_MB, MOOR_MAX_PAGES, MOOR_MAX_REQUEST_SECONDS, MOOR_MAX_RETRY_AFTER_SECONDS. */
export function transportSettings(env: NodeJS.ProcessEnv): TransportSettings {
  const mb = number(env, 'MOOR_MAX_BODY_MB', true);
  const pages = number(env, 'MOOR_MAX_PAGES', true);
  const request = number(env, 'MOOR_MAX_REQUEST_SECONDS', true);
  const retryAfter = number(env, 'MOOR_MAX_RETRY_AFTER_SECONDS', false);
  return {
    maxBodyBytes: mb === undefined ? undefined : Math.max(1, Math.floor(mb * 1024 * 1024)),
    maxPages: pages === undefined ? undefined : Math.max(1, Math.floor(pages)),
    maxRequestMs: request === undefined ? undefined : request * 1000,
    maxRetryAfterMs: retryAfter === undefined ? undefined : retryAfter * 1000,
  };
}

function number(env: NodeJS.ProcessEnv, name: string, positive: boolean): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (positive && n === 0)) {
    throw new UserError(`${name}: expected a number ${positive ? 'above 0' : 'of 0 or more'}, got ${JSON.stringify(raw)}`);
  }
  return n;
}

/** The stderr line for a wait of NOTICE_MIN_WAIT_MS or more: "moor: throttled by arm, waiting 40 s …"; undefined otherwise. */
export function waitNotice(e: MoorEvent): string | undefined {
  if ((e.type !== 'request_retried' && e.type !== 'throttled' && e.type !== 'poll_wait') || e.delayMs < NOTICE_MIN_WAIT_MS) return undefined;
  const wait = `waiting ${Math.round(e.delayMs / 1000)} s`;
  const target = `${e.method} ${e.label}`;
  if (e.type === 'poll_wait') return `moor: ${target} is still running on ${e.service}, ${wait} before checking again`;
  const why = e.status === 429 ? `throttled by ${e.service}` : e.status ? `${e.service} answered ${e.status}` : `no answer from ${e.service}`;
  return `moor: ${why}, ${wait} before sending ${target} again (attempt ${(e.attempt ?? 1) + 1})`;
}

/** `events`, with a notice line before each long wait (waitNotice); `wait` says of which kind, for sinks that show retries themselves. */
export function withWaitNotices(events: EventSink): EventSink {
  return (e) => {
    const long = waitNotice(e);
    if (long) events({ type: 'notice', message: long, wait: e.type === 'poll_wait' ? 'poll' : 'retry' });
    events(e);
  };
}
