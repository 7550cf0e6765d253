// The dashboard behind moor watch's listener: the page (public: code, no data) and its data
// documents and live stream (behind the listener's token, like /api/status).
import type { WatchMetrics } from '../metrics.js';
import { findStack, graphLayout, historyDocument, resourceDetail, type DashboardStack } from './dashboard-documents.js';
import { LiveFeed, type EventClient } from './live-feed.js';
import { RequestRates } from './request-rates.js';
import { StaticAssets, type StaticFile } from './static-assets.js';

/** A data document's answer: the document, or why there is none. */
export type DocumentAnswer = { readonly status: 200; readonly body: unknown } | { readonly status: 404 | 400; readonly message: string };

export class Dashboard {
  private readonly assets = new StaticAssets();
  private readonly rates: RequestRates;

  /** `feed` listens to the engine's event stream of each stack (the CLI adds it to each session's sinks). */
  constructor(
    private readonly stacks: () => readonly DashboardStack[],
    metrics: WatchMetrics,
    private readonly feed: LiveFeed,
  ) {
    this.rates = new RequestRates(() => metrics.serviceTotals());
  }

  /** The page or one of its assets; undefined: not the page's. */
  asset(path: string): Promise<StaticFile | undefined> {
    return this.assets.file(path);
  }

  /** A stack finished a cycle: rates take a sample, open pages hear of it. */
  cycle(stack: string | undefined, result: string): void {
    void this.rates.document().catch(() => undefined);
    this.feed.cycle(stack, result);
  }

  /** /api/events: the live stream. */
  stream(res: EventClient): void {
    this.feed.open(res);
  }

  /** /api/dashboard/NAME?stack=S&address=A */
  async document(name: string, query: URLSearchParams): Promise<DocumentAnswer> {
    if (name === 'rates') return { status: 200, body: await this.rates.document() };
    if (!['resource', 'graph', 'history'].includes(name))
      return { status: 404, message: `not found: /api/dashboard/${name} (resource, graph, history, rates)` };
    const stack = findStack(this.stacks(), query.get('stack'));
    if (!stack) return { status: 404, message: `no stack ${JSON.stringify(query.get('stack') ?? '')} in this watch` };
    if (name === 'graph') return { status: 200, body: await graphLayout(stack) };
    if (name === 'history') return { status: 200, body: await historyDocument(stack) };
    const address = query.get('address');
    if (!address) return { status: 400, message: 'give ?address=Kind/name' };
    const detail = await resourceDetail(stack, address);
    return detail ? { status: 200, body: detail } : { status: 404, message: `no resource ${address} in the last cycle of this stack` };
  }
}
