// moor watch: the Prometheus metrics, fed by listening to the engine's one event stream and to cycle results.
// The four classes a watch uses, each from its own module: prom-client's index also loads its push
// gateway (http, https, zlib), cluster aggregator (cluster), default metrics (perf_hooks, v8) and the
// summary's t-digest, none of which a watch uses: about a tenth of a CPU-second at every start.
import Counter from 'prom-client/lib/counter.js';
import Gauge from 'prom-client/lib/gauge.js';
import Histogram from 'prom-client/lib/histogram.js';
import Registry from 'prom-client/lib/registry.js';
import type { EventSink } from '../core/events.js';
import type { ResourceStatus } from './stack-status.js';

export interface ServiceTotals {
  readonly requests: number;
  readonly throttled: number;
  readonly retries: number;
  readonly throttleWaitSeconds: number;
}

/** The `stack` label of a stack's series (docs/watch.md): its name, `default` for the manifests watched without stacks. */
export function stackLabel(stack: string | undefined): string {
  return stack ?? 'default';
}

/** Every metric of a watch, on a registry of its own (no process-global state between tests). */
export class WatchMetrics {
  readonly registry = new Registry();
  private readonly resources = new Gauge({
    name: 'moor_resources',
    help: 'Resources by stack, kind and status (in_sync, drifted, pending, failed, held, in_progress, unknown).',
    labelNames: ['stack', 'kind', 'status'],
    registers: [this.registry],
  });
  private readonly drifted = new Gauge({
    name: 'moor_drifted_resources',
    help: 'Resources whose live state drifted from the last apply, per stack.',
    labelNames: ['stack'],
    registers: [this.registry],
  });
  private readonly runs = new Counter({
    name: 'moor_reconcile_runs_total',
    help: 'Reconcile cycles by stack and result (in_sync, drifted, healed, failed, locked).',
    labelNames: ['stack', 'result'],
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'moor_reconcile_duration_seconds',
    help: 'How long a reconcile cycle took (plan, and apply with --self-heal).',
    labelNames: ['stack'],
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    registers: [this.registry],
  });
  private readonly lastRun = new Gauge({
    name: 'moor_last_reconcile_timestamp_seconds',
    help: 'When the last reconcile cycle of a stack ended (Unix time).',
    labelNames: ['stack'],
    registers: [this.registry],
  });
  private readonly requests = new Counter({
    name: 'moor_requests_total',
    help: 'Answers received from each service (every attempt).',
    labelNames: ['service'],
    registers: [this.registry],
  });
  private readonly throttled = new Counter({
    name: 'moor_throttled_requests_total',
    help: 'Requests a service refused with 429 (throttled).',
    labelNames: ['service'],
    registers: [this.registry],
  });
  private readonly throttleWait = new Counter({
    name: 'moor_throttle_wait_seconds_total',
    help: 'Time spent waiting out throttling (429 Retry-After and pacing), per service.',
    labelNames: ['service'],
    registers: [this.registry],
  });
  private readonly lease = new Gauge({
    name: 'moor_stack_lease',
    help: "Whether this replica holds the stack's lease and reconciles it (1) or stands by while another replica does (0).",
    labelNames: ['stack'],
    registers: [this.registry],
  });
  private readonly planned = new Counter({
    name: 'moor_planned_changes_total',
    help: 'Changes the planner decided, by stack and action (no-ops not counted), in every cycle, applied or not.',
    labelNames: ['stack', 'action'],
    registers: [this.registry],
  });
  private readonly replicaCount = new Gauge({
    name: 'moor_replicas',
    help: 'Live replicas of moor watch sharing the stacks, as this replica saw them at its last look (1 without replicas).',
    registers: [this.registry],
  });
  private readonly handovers = new Counter({
    name: 'moor_stack_handovers_total',
    help: 'Stacks this replica took over (in) or handed over to another replica between cycles to share the stacks fairly (out).',
    labelNames: ['direction'],
    registers: [this.registry],
  });
  private readonly retries = new Counter({
    name: 'moor_request_retries_total',
    help: 'Requests sent again after a failure other than throttling, per service.',
    labelNames: ['service'],
    registers: [this.registry],
  });

  /** The kind and status series of moor_resources set for each stack. */
  private readonly shown = new Map<string, Set<string>>();

  constructor() {
    this.replicaCount.set(1);
    this.handovers.inc({ direction: 'in' }, 0);
    this.handovers.inc({ direction: 'out' }, 0);
  }

  /** A listener of the engine's event stream: request, 429, throttle-wait and retry counters per service. */
  readonly events: EventSink = (e) => {
    if (e.type === 'request_answered') {
      this.requests.inc({ service: e.service });
      if (e.status === 429) this.throttled.inc({ service: e.service });
    } else if (e.type === 'throttled') {
      this.throttleWait.inc({ service: e.service }, e.delayMs / 1000);
    } else if (e.type === 'request_retried') {
      this.retries.inc({ service: e.service });
    }
  };

  /** A listener of one stack's event stream: each change the planner decides (its `planned` events). */
  stackEvents(name: string | undefined): EventSink {
    const stack = stackLabel(name);
    return (e) => {
      if (e.type === 'planned' && e.action !== 'no-op') this.planned.inc({ stack, action: e.action });
    };
  }

  /** A finished cycle of a stack: its result, how long it took, and its resources now. */
  cycle(name: string | undefined, result: string, seconds: number, resources: readonly ResourceStatus[] | undefined): void {
    const stack = stackLabel(name);
    this.runs.inc({ stack, result });
    this.duration.observe({ stack }, seconds);
    this.lastRun.set({ stack }, Date.now() / 1000);
    if (!resources) return;
    const counts = countByKindAndStatus(resources);
    // A series of this stack no resource has any more goes, rather than stay at its last value.
    for (const key of this.shown.get(stack) ?? []) {
      if (!counts.has(key)) this.resources.remove({ stack, ...labelsOf(key) });
    }
    for (const [key, n] of counts) this.resources.set({ stack, ...labelsOf(key) }, n);
    this.shown.set(stack, new Set(counts.keys()));
    this.drifted.set({ stack }, resources.filter((r) => r.status === 'drifted').length);
  }

  /** Whether this replica holds a stack's lease, as its last try found. */
  leaseOf(stack: string | undefined, held: boolean): void {
    this.lease.set({ stack: stackLabel(stack) }, held ? 1 : 0);
  }

  /** How many live replicas share the stacks. */
  replicas(live: number): void {
    this.replicaCount.set(live);
  }

  /** A stack this replica took over (in) or handed over (out). */
  handover(direction: 'in' | 'out'): void {
    this.handovers.inc({ direction });
  }

  /** The request counters per service as they stand (the dashboard's rates). */
  async serviceTotals(): Promise<Map<string, ServiceTotals>> {
    const totals = new Map<string, ServiceTotals>();
    const add = async (counter: Counter<'service'>, field: keyof ServiceTotals) => {
      for (const v of (await counter.get()).values) {
        const service = String(v.labels.service);
        const t = totals.get(service) ?? { requests: 0, throttled: 0, retries: 0, throttleWaitSeconds: 0 };
        totals.set(service, { ...t, [field]: v.value });
      }
    };
    await add(this.requests, 'requests');
    await add(this.throttled, 'throttled');
    await add(this.retries, 'retries');
    await add(this.throttleWait, 'throttleWaitSeconds');
    return totals;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

function countByKindAndStatus(resources: readonly ResourceStatus[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of resources) {
    const key = `${r.kind}\u0000${r.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function labelsOf(key: string): { kind: string; status: string } {
  const [kind, status] = key.split('\u0000');
  return { kind, status };
}
