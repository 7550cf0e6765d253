// ARM's x-ms-ratelimit-remaining-* headers when no --rate-limit is set: the seeds' buckets per
// subscription and class are counted (reads 250 burst refilling 25/s; writes and deletes 200, 10/s)
// but never refuse, so clients that read the headers see them on every answer.
import type { RequestClass } from './rate-limiter.js';

const BUCKETS: Readonly<Record<RequestClass, { burst: number; perSecond: number }>> = {
  reads: { burst: 250, perSecond: 25 },
  writes: { burst: 200, perSecond: 10 },
  deletes: { burst: 200, perSecond: 10 },
};

export class RateLimitMeter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly clock: () => number = () => Date.now()) {}

  /** Counts one request of `cls` and returns what remains (0 at the least: this meter never refuses). */
  remainingAfter(scope: string, cls: RequestClass): number {
    const { burst, perSecond } = BUCKETS[cls];
    const key = `${scope}/${cls}`;
    const now = this.clock();
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.max(0, Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond) - 1);
    bucket.at = now;
    this.buckets.set(key, bucket);
    return Math.floor(bucket.tokens);
  }
}
