// ARM-like throttling: a token bucket per service and per request class (read, write, delete).
export type RequestClass = 'reads' | 'writes' | 'deletes';

export function requestClass(method: string): RequestClass {
  const m = method.toUpperCase();
  if (m === 'GET' || m === 'HEAD') return 'reads';
  if (m === 'DELETE') return 'deletes';
  return 'writes';
}

export type Admission =
  { readonly admitted: true; readonly remaining: number } | { readonly admitted: false; readonly remaining: 0; readonly retryAfterSeconds: number };

export interface Bucket {
  tokens: number;
  at: number;
}

/** The bucket of `key` refilled up to now (`perSecond` a second, at most `burst`); a new key starts full. */
export function refilled(buckets: Map<string, Bucket>, key: string, burst: number, perSecond: number, now: number): Bucket {
  const bucket = buckets.get(key) ?? { tokens: burst, at: now };
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
  bucket.at = now;
  buckets.set(key, bucket);
  return bucket;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;

  /** `perSecond` tokens refill each second; a full bucket holds ten seconds' worth. */
  constructor(
    private readonly perSecond: number,
    private readonly clock: () => number = () => Date.now(),
  ) {
    this.burst = Math.max(1, Math.round(perSecond * 10));
  }

  admit(service: string, cls: RequestClass): Admission {
    const bucket = refilled(this.buckets, `${service}/${cls}`, this.burst, this.perSecond, this.clock());
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { admitted: true, remaining: Math.floor(bucket.tokens) };
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
    return { admitted: false, remaining: 0, retryAfterSeconds };
  }
}
