// moor watch: runs the loops of every stack, serves the endpoints, and stops cleanly on SIGTERM/SIGINT.
import { manifestPaths } from '../engine/config-stacks.js';
import { CachedJson, identityOf } from './cached-json.js';
import { Dashboard } from './dashboard/dashboard.js';
import type { LiveFeed } from './dashboard/live-feed.js';
import { stackField } from './dashboard/stack-field.js';
import type { WatchStatus } from './dashboard/api-types.js';
import { serveEndpoints, type ListenOptions, type RunningServer } from './http-server.js';
import { watchFile, watchManifests } from './manifest-watcher.js';
import type { WatchMetrics } from './metrics.js';
import { ReplicaFleet } from './replica-fleet.js';
import type { ReplicaCard } from '../engine/state/types.js';
import { StackLoop, type FindingListener, type StackTarget } from './stack-loop.js';
import type { CycleReport } from './reconcile.js';

export interface WatchRun {
  readonly stacks: readonly StackTarget[];
  readonly intervalMs: number;
  readonly metrics: WatchMetrics;
  /** Where to serve the endpoints, and the masker every answer passes. */
  readonly listen?: ListenOptions;
  /** The dashboard's live stream; it already listens to each stack's engine events, and hears each cycle here. */
  readonly feed?: LiveFeed;
  readonly log: (line: string) => void;
  readonly onFinding: FindingListener;
  /** Aborted to stop: the loops finish their cycle in flight. */
  readonly signal: AbortSignal;
  /** Called with the URL once the endpoints are served. */
  readonly onListening?: (url: string) => void;
  /** This replica as the others see it (replicas on PostgreSQL share the stacks by it). */
  readonly replica: ReplicaCard;
  /** The lease's fencing token of a stack while this replica holds it (its requests carry it), undefined once not. */
  readonly onLease?: (stack: StackTarget, epoch: number | undefined) => void;
}

/** Runs until `signal` is aborted, then waits for the cycles in flight and closes the endpoints. */
export async function runWatch(run: WatchRun): Promise<void> {
  const loops = new Map<StackTarget, StackLoop>();
  // Silent for half an interval (paused, cut off), a replica's membership and leases go: the others take over within two intervals.
  const fleet = new ReplicaFleet({
    replica: run.replica,
    intervalMs: run.intervalMs,
    ttlMs: run.intervalMs / 2,
    log: (s, line) => run.log(s ? prefix(s) + line : line),
    busy: (s) => loops.get(s)?.busy ?? false,
    wake: (s) => loops.get(s)?.wake(),
    onLease: (s, epoch) => {
      run.metrics.leaseOf(s.name, epoch !== undefined);
      run.onLease?.(s, epoch);
    },
    onHandover: (direction) => run.metrics.handover(direction),
    onReplicas: (live) => run.metrics.replicas(live),
  });
  await fleet.start(run.stacks);
  try {
    await watchStacks(run, fleet, loops);
  } finally {
    // After the cycles in flight ended and recorded what they did: the other replicas share the stacks without this one.
    await fleet.stop();
  }
}

async function watchStacks(run: WatchRun, leases: ReplicaFleet, byStack: Map<StackTarget, StackLoop>): Promise<void> {
  const claim = async (s: StackTarget) => {
    const held = await leases.claim(s);
    run.metrics.leaseOf(s.name, held);
    return held;
  };
  const dashboard =
    run.listen && run.feed
      ? new Dashboard(() => loops.map((l) => ({ name: l.target.name, session: l.target.session, state: () => l.state() })), run.metrics, run.feed)
      : undefined;
  const loops: StackLoop[] = run.stacks.map(
    (stack) =>
      new StackLoop(stack, {
        intervalMs: run.intervalMs,
        signal: run.signal,
        onFinding: run.onFinding,
        claim,
        onCycle: (s, report, seconds) => {
          run.metrics.cycle(s.name, report.result, seconds, report.resources);
          dashboard?.cycle(s.name, report.result);
          if (report.result === 'locked') run.log(`${prefix(s)}skipped this cycle: ${report.error ?? 'the state lock is held'}`);
        },
      }),
  );
  loops.forEach((l) => byStack.set(l.target, l));
  const status = new CachedJson(
    () => statusKey(loops, leases),
    () => statusDocument(loops, leases, run.replica),
  );
  let server: RunningServer | undefined;
  if (run.listen) {
    server = await serveEndpoints(run.listen, {
      // Liveness: the process answers and is not shutting down (a long apply is no reason to restart it).
      healthy: () => !run.signal.aborted,
      notReady: () => notReady(loops),
      metrics: async () => ({ contentType: run.metrics.contentType, text: await run.metrics.text() }),
      status: () => status.answer(),
      ...(dashboard ? { dashboard } : {}),
    });
    run.onListening?.(server.url);
  }
  const closers = run.stacks.map((s, i) => watchManifests(manifestPaths(s.session.config.stack, s.options.paths), s.options.cwd, () => loops[i].changed()));
  // A change to moor.config.yaml (a stack's variables) is planned soon, as a manifest change is.
  const configFile = run.stacks[0]?.session.config.file;
  if (configFile !== undefined) closers.push(watchFile(configFile, run.stacks[0].options.cwd, () => loops.forEach((l) => l.changed())));
  loops.forEach((l) => l.start());
  await new Promise<void>((resolve) => {
    if (run.signal.aborted) resolve();
    else run.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  closers.forEach((close) => close());
  await Promise.all(loops.map((l) => l.stop()));
  await server?.close();
}

/** /readyz: red until every stack was reconciled once, and while a stack's cycles cannot run (state locked or unreachable). */
function notReady(loops: readonly StackLoop[]): string | undefined {
  if (!loops.every((l) => l.completedOnce)) return 'not every stack has been reconciled yet';
  const stalled = loops.flatMap((l) => {
    const why = l.stalledReason;
    return why ? [`${l.target.name ? `stack ${l.target.name}: ` : ''}${why}`] : [];
  });
  return stalled.length > 0 ? stalled.join('; ') : undefined;
}

export function prefix(stack: StackTarget): string {
  return stack.name ? `moor watch: stack ${stack.name}: ` : 'moor watch: ';
}

/** What /api/status shows changes only with these: a cycle, a schedule, a failure count, a lease. */
function statusKey(loops: readonly StackLoop[], leases: ReplicaFleet): string {
  return JSON.stringify([
    leases.status()?.surveyedAt,
    loops.map((l) => {
      const s = l.state();
      return [s.runs, s.failures, s.standby, s.lastRunAt, s.lastSuccessAt, s.nextRunAt, leases.holds(l.target), identityOf(s.lastReport)];
    }),
  ]);
}

/** /api/status: every stack, its last cycle and its resources. */
function statusDocument(loops: readonly StackLoop[], leases: ReplicaFleet, replica: ReplicaCard): WatchStatus {
  const fleet = leases.status();
  return {
    format: 'moor-watch-status/1',
    // This replica and the stacks whose lease it holds (the others are reconciled by other replicas).
    replica: { id: replica.id, host: replica.host, pid: replica.pid },
    holds: loops.filter((l) => leases.holds(l.target)).map((l) => stackField(l.target.name)),
    // Replicas on PostgreSQL: every replica this one saw at its last look, its heartbeat and the stacks it holds.
    ...(fleet
      ? { fleet: { replicas: fleet.replicas.map((r) => ({ ...r, holds: r.holds.map(stackField) })), stacks: fleet.stacks, surveyedAt: fleet.surveyedAt } }
      : {}),
    stacks: loops.map((l) => {
      const s = l.state();
      // A stack whose lease went to another replica is on standby here from that moment, not from this
      // replica's next cycle: what it saw last is no longer the stack's result.
      const standby = s.standby || !leases.holds(l.target);
      const r: CycleReport | undefined = standby ? undefined : s.lastReport;
      return {
        stack: stackField(s.name),
        standby,
        runs: s.runs,
        consecutiveFailures: s.failures,
        lastRunAt: s.lastRunAt ?? null,
        lastSuccessAt: s.lastSuccessAt ?? null,
        nextRunAt: s.nextRunAt ?? null,
        result: r?.result ?? null,
        error: r?.error ?? null,
        findings: r?.findings ?? [],
        resources: r?.resources ?? [],
        lastRun: r?.outcomes
          ? r.outcomes
              .filter((o) => o.action !== 'no-op' || o.status !== 'done')
              .map((o) => ({ address: o.address, action: o.action, status: o.status, ...(o.error ? { error: o.error } : {}) }))
          : null,
      };
    }),
  };
}
