// The dashboard's rates: per minute from the difference between the newest sample and the oldest one kept.
import { describe, expect, test } from 'vitest';
import type { ServiceTotals } from '../metrics.js';
import { RequestRates, RATE_WINDOW_SECONDS } from './request-rates.js';

const totals = (requests: number, throttled = 0): Map<string, ServiceTotals> =>
  new Map([['arm', { requests, throttled, retries: 0, throttleWaitSeconds: throttled * 1.5 }]]);

describe('RequestRates', () => {
  test('has no rate from one sample, then counts per minute over the time between samples', async () => {
    let now = 0;
    let current = totals(100);
    const rates = new RequestRates(
      async () => current,
      () => now,
    );
    expect((await rates.document()).services[0]).toMatchObject({ service: 'arm', requests: 100, requestsPerMinute: null });
    now = 30_000;
    current = totals(160, 3);
    expect((await rates.document()).services[0]).toMatchObject({
      requests: 160,
      requestsPerMinute: 120,
      throttled: 3,
      throttledPerMinute: 6,
      throttleWaitSeconds: 4.5,
    });
  });

  test('forgets samples older than the window', async () => {
    let now = 0;
    let current = totals(0);
    const rates = new RequestRates(
      async () => current,
      () => now,
    );
    await rates.document();
    now = 60_000;
    current = totals(600);
    await rates.document();
    now = (RATE_WINDOW_SECONDS + 30) * 1000;
    current = totals(660);
    // The sample at 0 is gone: the rate runs from the one at one minute.
    const arm = (await rates.document()).services[0];
    expect(arm.requestsPerMinute).toBeCloseTo(60 / ((RATE_WINDOW_SECONDS + 30 - 60) / 60), 1);
  });
});
