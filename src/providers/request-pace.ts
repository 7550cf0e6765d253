// Pacing of one request class (reads, writes, deletes) of one throttling bucket, learned from the
// service's own x-ms-ratelimit-remaining-* answers: free while the bucket holds tokens, spaced at
// the learned refill rate once it runs low, halved on a 429 and probed upwards again (AIMD).

/** Tokens left alone for requests whose answers are not back yet. */
const RESERVE = 2;
/** Refill samples span at least this long, so one slow answer does not skew them. */
const SAMPLE_MS = 1_000;
/** Real buckets refill about a tenth of their size each second (SERVICES.md: 250 burst, 25/s). */
const REFILL_SHARE = 10;

export class Pace {
  /** The bucket's last reported remaining tokens; undefined while the service has not said. */
  remaining: number | undefined;
  inFlight = 0;
  /** Earliest start of the next request while the bucket runs low. */
  nextAt = 0;
  /** Learned refill, requests per second. */
  rate: number | undefined;
  private maxSeen = 0;
  private admitted = 0;
  private anchor: { at: number; remaining: number; admitted: number } | undefined;

  /** The bucket runs low: what is left would not cover the requests already sent. */
  low(): boolean {
    return this.remaining !== undefined && this.remaining - this.inFlight <= RESERVE;
  }

  allows(now: number): boolean {
    return !this.low() || now >= this.nextAt;
  }

  refillPerSecond(): number {
    return this.rate ?? Math.max(1, this.maxSeen / REFILL_SHARE);
  }

  started(now: number): void {
    if (this.low()) this.nextAt = now + 1000 / this.refillPerSecond();
    this.inFlight++;
  }

  /** An answer (or a failure without one, `remaining` undefined) came back. */
  answered(now: number, remaining: number | undefined, throttled: boolean): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (throttled) {
      // Only a bucket that reports its tokens is paced; the others rely on the pause and the in-flight limit.
      if (this.remaining === undefined) return;
      this.rate = this.refillPerSecond() / 2;
      this.remaining = 0;
      this.anchor = undefined;
      return;
    }
    if (remaining === undefined) return;
    const wasLow = this.low();
    this.admitted++;
    this.remaining = remaining;
    this.maxSeen = Math.max(this.maxSeen, remaining);
    if (wasLow && this.rate !== undefined) this.rate += 1 / this.rate;
    this.learn(now, remaining);
  }

  /** Refill = tokens regained + tokens spent, over the time between two answers (only while not full). */
  private learn(now: number, remaining: number): void {
    const a = this.anchor;
    if (!a || a.remaining >= this.maxSeen / 2) {
      this.anchor = { at: now, remaining, admitted: this.admitted };
      return;
    }
    if (now - a.at < SAMPLE_MS) return;
    const sample = (remaining - a.remaining + (this.admitted - a.admitted)) / ((now - a.at) / 1000);
    if (sample > 0) this.rate = this.rate === undefined ? sample : (this.rate + sample) / 2;
    this.anchor = { at: now, remaining, admitted: this.admitted };
  }
}
