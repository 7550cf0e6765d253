// The dashboard's request and throttling rates: the watch's counters sampled now and then, so a
// rate per minute can be told from the difference between the newest sample and one a while ago.
import type { ServiceTotals } from '../metrics.js';
import type { RatesDocument, ServiceRates } from './api-types.js';

/** How far back the per-minute rates look. */
export const RATE_WINDOW_SECONDS = 300;

/** Samples closer together than this add nothing (a page may ask often): at most a few hundred are kept. */
const MIN_SAMPLE_GAP_MS = 5_000;

interface Sample {
  readonly at: number;
  readonly totals: ReadonlyMap<string, ServiceTotals>;
}

export class RequestRates {
  private samples: Sample[] = [];

  constructor(
    private readonly read: () => Promise<Map<string, ServiceTotals>>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a sample (each cycle and each page request) and answers with the rates over the window. */
  async document(): Promise<RatesDocument> {
    const at = this.now();
    const totals = await this.read();
    this.samples = this.samples.filter((s) => at - s.at <= RATE_WINDOW_SECONDS * 1000);
    const oldest = this.samples.at(0);
    const newest = this.samples.at(-1);
    if (!newest || at - newest.at >= MIN_SAMPLE_GAP_MS) this.samples.push({ at, totals });
    const minutes = oldest ? (at - oldest.at) / 60_000 : 0;
    const services: ServiceRates[] = [...totals]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([service, t]) => {
        const before = oldest?.totals.get(service);
        const rate = (field: 'requests' | 'throttled') => (minutes > 0 ? round((t[field] - (before?.[field] ?? 0)) / minutes) : null);
        return { service, ...t, throttleWaitSeconds: round(t.throttleWaitSeconds), requestsPerMinute: rate('requests'), throttledPerMinute: rate('throttled') };
      });
    return { format: 'moor-dashboard-rates/1', windowSeconds: RATE_WINDOW_SECONDS, services };
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
