// How much moor believes of one answer: a size cap on bodies, a cap on pages, redirects and waits.
import type { FetchAnswer } from './http-fetch.js';

/** Limits of the transport; every field optional with the documented default. */
export interface ResponseLimits {
  /** Largest body read, in bytes (default 32 MiB); a larger one is cut off and is an error. */
  readonly maxBodyBytes?: number;
  /** Pages one listing may take (default 10 000); more is an error, never a truncated list. */
  readonly maxPages?: number;
  /** Redirects followed per request, all on the same origin (default 5). */
  readonly maxRedirects?: number;
  /** Time one request may take in total, attempts and waits included, in ms (default 300 000). */
  readonly maxRequestMs?: number;
}

export const DEFAULT_LIMITS = {
  maxBodyBytes: 32 * 1024 * 1024,
  maxPages: 10_000,
  maxRedirects: 5,
  maxRequestMs: 300_000,
} as const;

/** Error bodies are only read for a message: a short prefix is enough. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** The body was longer than the limit; reading stopped there. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the answer is larger than ${describeBytes(limit)}; moor stopped reading it`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Reads at most `limit` bytes of a body. With `truncate`, a longer body gives its first `limit`
 * bytes; otherwise it throws BodyTooLargeError. Either way the rest is never read (the stream is
 * cancelled), so a body that never ends cannot fill the memory.
 */
export async function readLimited(res: FetchAnswer, limit: number, truncate = false): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (!truncate && Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limit);
  }
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > limit) {
      await reader.cancel().catch(() => undefined);
      if (!truncate) throw new BodyTooLargeError(limit);
      chunks.push(value.subarray(0, limit - total));
      total = limit;
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  return concat(chunks, total);
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** 32 MiB, 512 KiB, 100 bytes. */
export function describeBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
