// The fault knobs: injected failures before the handler (nothing changes), after it (answer lost), throttling and latency.
import { describe, expect, it } from 'vitest';
import { planFault } from '../../src/localcloud/faults.js';
import { RateLimiter } from '../../src/localcloud/rate-limiter.js';
import type { LocalService } from '../../src/localcloud/types.js';
import { call, cloud, groupBody, groupUrl } from './helpers.js';

/** A counter service whose POST is flagged as not idempotent. */
function counter(): { service: LocalService; calls: () => number } {
  let n = 0;
  const service: LocalService = {
    name: 'analytics',
    routes: [
      { method: 'POST', path: '/count', faultAfterCommit: true, handler: () => ({ status: 201, body: { n: ++n } }) },
      { method: 'PUT', path: '/count', handler: () => ({ status: 200, body: { n: ++n } }) },
    ],
    errorBody: (_s, code, message) => ({ error: { code, message } }),
  };
  return { service, calls: () => n };
}

async function outcome(url: string, method: string): Promise<string> {
  try {
    const res = await call(url, { method, body: {} });
    return String(res.status);
  } catch {
    return 'dropped';
  }
}

describe('fault injection', () => {
  it('answers a mix of 500, 503, 429 with Retry-After and dropped connections, in the service error shape, without running the handler', async () => {
    const { service, calls } = counter();
    const c = await cloud({ failRate: 1 }, [service]);
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const o = await outcome(`${c.url}/count`, 'PUT');
      seen.add(o);
    }
    expect([...seen].sort()).toEqual(['429', '500', '503', 'dropped']);
    expect(calls()).toBe(0);
    const throttled = await (async () => {
      for (;;) {
        const res = await call(`${c.url}/count`, { method: 'PUT', body: {} }).catch(() => undefined);
        if (res?.status === 429) return res;
      }
    })();
    expect(throttled.headers.get('retry-after')).toBe('1');
    expect(throttled.body.error.code).toBe('TooManyRequests');
  });

  it('answers an injected 429 with the Retry-After it is given (tests give 0, so a retry waits no real second)', async () => {
    const { service } = counter();
    const c = await cloud({ failRate: 1, faultRetryAfterSeconds: 0, random: () => 0.6 }, [service]);
    const res = await call(`${c.url}/count`, { method: 'PUT', body: {} });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('0');
  });

  it('drops some answers after the handler ran on routes flagged faultAfterCommit', async () => {
    const seq = [0, 0.1, 0.9]; // fault, after commit, (unused)
    let i = 0;
    const { service, calls } = counter();
    const c = await cloud({ failRate: 0.5, random: () => seq[i++ % seq.length] }, [service]);
    expect(await outcome(`${c.url}/count`, 'POST')).toBe('dropped');
    expect(calls()).toBe(1);
  });

  it('never faults when the rate is 0', () => {
    expect(planFault(0, true, () => 0)).toEqual({ dropAfter: false });
  });
});

describe('rate limit', () => {
  it('refills r tokens a second up to a burst of 10 r, per class', () => {
    let now = 0;
    const limiter = new RateLimiter(2, () => now);
    for (let i = 0; i < 20; i++) expect(limiter.admit('arm', 'writes').admitted).toBe(true);
    const refused = limiter.admit('arm', 'writes');
    expect(refused).toEqual({ admitted: false, remaining: 0, retryAfterSeconds: 1 });
    expect(limiter.admit('arm', 'reads').admitted).toBe(true);
    now += 1000;
    expect(limiter.admit('arm', 'writes')).toEqual({ admitted: true, remaining: 1 });
  });

  it('answers 429 with an integer Retry-After and ARM remaining-request headers once the bucket is empty', async () => {
    const c = await cloud({ rateLimit: 1 });
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 11; i++) {
      last = await call(groupUrl(c.url, `g${i}`), { method: 'PUT', body: groupBody() });
      statuses.push(last.status);
      if (last.status === 201) expect(last.headers.get('x-ms-ratelimit-remaining-subscription-writes')).toBe(String(9 - i));
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(last!.status).toBe(429);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(last!.headers.get('x-ms-ratelimit-remaining-subscription-writes')).toBe('0');
    expect(last!.body.error.code).toBe('TooManyRequests');
    const read = await call(groupUrl(c.url, 'g0'));
    expect(read.status).toBe(200);
    expect(read.headers.get('x-ms-ratelimit-remaining-subscription-reads')).toBe('9');
  });
});

describe('latency', () => {
  it('delays every response by at least the configured time', async () => {
    const c = await cloud({ latencyMs: 60 });
    const started = performance.now();
    await call(groupUrl(c.url, 'web'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });
});
