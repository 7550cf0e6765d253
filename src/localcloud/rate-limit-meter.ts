// ARM's x-ms-ratelimit-remaining-* headers when no --rate-limit is set: the seeds' buckets per
// subscription and class are counted (reads 250 burst refilling 25/s; writes and deletes 200, 10/s)
// but never refuse, so clients that read the headers see them on every answer.
import { refilled, type Bucket, type RequestClass } from './rate-limiter.js';

const BUCKETS: Readonly<Record<RequestClass, { burst: number; perSecond: number }>> = {
  reads: { burst: 250, perSecond: 25 },
  writes: { burst: 200, perSecond: 10 },
  deletes: { burst: 200, perSecond: 10 },
};

export class RateLimitMeter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly clock: () => number = () => Date.now()) {}

  /** Counts one request of `cls` and returns what remains (0 at the least: this meter never refuses). */
  remainingAfter(scope: string, cls: RequestClass): number {
    const { burst, perSecond } = BUCKETS[cls];
    const bucket = refilled(this.buckets, `${scope}/${cls}`, burst, perSecond, this.clock());
    bucket.tokens = Math.max(0, bucket.tokens - 1);
    return Math.floor(bucket.tokens);
  }
}
