// moor watch at the CLI edge: arguments, one session per stack, the log and notifications, and the signals that stop it.
import type { Command } from 'commander';
import { UserError } from '../core/diagnostics.js';
import { fanOut, noticeSink } from '../core/events.js';
import { lineText } from '../core/foreign-text.js';
import type { Session } from '../engine/session.js';
import type { StartLocalCloud } from '../session/open-session.js';
import { globalOptions } from './session-options.js';
import { planInputs } from './plan-inputs.js';
import type { CycleReport } from '../watch/reconcile.js';
import type { Plan } from '../engine/plan/types.js';
import type { StackTarget } from '../watch/stack-loop.js';
import type { IoHost } from './io-host.js';

export interface WatchCommandFlags {
  readonly allStacks?: boolean;
  readonly interval: string;
  readonly selfHeal?: boolean;
  readonly prune?: boolean;
  readonly allowDestructive?: string[];
  readonly listen?: string;
  readonly listenToken?: string;
  readonly listenHost?: string[];
  readonly replicaId?: string;
}

export async function runWatchCommand(io: IoHost, paths: string[], flags: WatchCommandFlags, command: Command): Promise<number> {
  const { parseDuration } = await import('../watch/duration.js');
  const { parseListen, parseListenHost, requireToken } = await import('../watch/listen-address.js');
  const { Masker } = await import('../core/masker.js');
  const { WatchMetrics } = await import('../watch/metrics.js');
  const { runWatch, prefix } = await import('../watch/watch-runner.js');
  const { loadConfig } = await import('../engine/config.js');
  const intervalMs = parseDuration(flags.interval, '--interval');
  const address = flags.listen !== undefined ? parseListen(flags.listen) : undefined;
  if (address) requireToken(address, flags.listenToken);
  const hosts = (flags.listenHost ?? []).flatMap((h) => h.split(',')).map(parseListenHost);
  if (hosts.length > 0 && !address) throw new UserError('--listen-host names the --listen address: give --listen too');
  // One masker for every stack's session and the listener: what it serves shows no secret any stack found.
  const masker = io.masker ?? new Masker();
  masker.register(flags.listenToken);
  if ((flags.prune || flags.allowDestructive?.length) && !flags.selfHeal)
    throw new UserError(`${flags.prune ? '--prune' : '--allow-destructive'} changes what --self-heal applies: give --self-heal too`);

  const g = globalOptions(command);
  const plain = loadConfig(g.config, io.cwd, io.env);
  const names = stackNames(plain.stacks, g.stack?.name, flags.allStacks);
  const metrics = new WatchMetrics();
  const { replicaCard } = await import('../watch/replica-id.js');
  const replica = replicaCard(flags.replicaId ?? io.env.MOOR_REPLICA_ID, address, flags.replicaId !== undefined ? '--replica-id' : 'MOOR_REPLICA_ID');
  const { moorVersion } = await import('./version.js');
  const agent = `moor/${moorVersion()}`;
  // Each stack's requests name the replica and the stack's lease (its fencing token), as a service's request log shows them.
  const leases = new Map<string | undefined, number>();
  const { LiveFeed } = await import('../watch/dashboard/live-feed.js');
  const feed = new LiveFeed();
  // Every log line may carry foreign text (services' error codes and messages, lock holders, paths):
  // each is kept on its one line, so nothing a manifest or a service says can forge a line or a command.
  const log = (line: string) => io.stderr.write(lineText(line) + '\n');
  const events = fanOut(noticeSink(log), metrics.events);
  const startLocalCloud = sharedLocalCloud();
  const sessions: Session[] = [];
  const controller = new AbortController();
  const stop = (signal: string) => {
    if (controller.signal.aborted) return;
    log(`moor watch: ${signal}: finishing the cycle in flight and recording it, then stopping`);
    controller.abort();
  };
  const stopListening = io.onSignals(['SIGTERM', 'SIGINT'], stop);
  try {
    const { openSession } = await import('../session/open-session.js');
    const { CATALOG } = await import('./catalog.js');
    // The same rules as moor apply: the Policy documents among the manifests guard every cycle's plan.
    const { lazyPolicyGuard } = await import('../policy/lazy-guard.js');
    const { FollowedConfig, configReads } = await import('../watch/followed-config.js');
    // eslint-disable-next-line @typescript-eslint/unbound-method -- node:path's functions use no `this`
    const { resolve } = await import('node:path');
    const configFile = g.config ?? (io.env.MOOR_CONFIG || 'moor.config.yaml');
    const readConfig = configReads(resolve(io.cwd, configFile), (name) =>
      loadConfig(g.config, io.cwd, io.env, name === undefined ? undefined : { name, source: 'named' }),
    );
    const stacks: StackTarget[] = [];
    for (const name of names) {
      // The stack's events: its session's, and its cycles' while they run (reconcile.ts hands them on).
      const stackEvents = fanOut(events, metrics.stackEvents(name), feed.engineEvents(name));
      const session = await openSession({
        configFile: g.config,
        state: g.state,
        ...(name === undefined ? {} : { stack: { name, source: 'named' as const } }),
        cwd: io.cwd,
        env: io.env,
        events: stackEvents,
        kinds: CATALOG,
        guard: lazyPolicyGuard,
        startLocalCloud: startLocalCloud.start,
        masker,
        ...(io.now ? { now: io.now } : {}),
        userAgent: () => {
          const lease = leases.get(name);
          return `${agent} (watch; replica ${replica.id}${name !== undefined ? `; stack ${name}` : ''}${lease !== undefined ? `; lease ${lease}` : ''})`;
        },
      });
      sessions.push(session);
      const followed = new FollowedConfig(
        session,
        () => readConfig(name),
        (line) => log(`${name ? `moor watch: stack ${name}: ` : 'moor watch: '}${line}`),
      );
      stacks.push({
        name,
        get session() {
          return followed.session;
        },
        refreshConfig: () => followed.refresh(),
        options: {
          paths,
          selfHeal: flags.selfHeal === true,
          prune: flags.prune === true,
          allowDestructive: planInputs(paths, flags).allowDestructive ?? [],
          cwd: io.cwd,
          env: io.env,
          events: stackEvents,
        },
      });
    }
    const states = [...new Set(sessions.map((s) => s.backend.location))];
    const shared = sessions.every((s) => s.backend.replicas === true);
    log(
      `moor watch: ${stacks.length === 1 ? 'one stack' : `${stacks.length} stacks`} every ${flags.interval} (${flags.selfHeal ? 'self-heal: applying what drifts' : 'report only; --self-heal repairs'}); ` +
        `state ${states.join(', ')}: ${shared ? `replicas share the stacks fairly, each reconciled by the one holding its lease; this is replica ${replica.id}` : 'this watch runs alone (a second watch on this state is refused)'}`,
    );
    await runWatch({
      stacks,
      intervalMs,
      metrics,
      log,
      feed,
      signal: controller.signal,
      replica,
      onLease: (stack, epoch) => {
        if (epoch === undefined) leases.delete(stack.name);
        else leases.set(stack.name, epoch);
      },
      ...(address ? { listen: { address, masker, hosts, ...(flags.listenToken ? { token: flags.listenToken } : {}) } } : {}),
      onListening: (url) =>
        log(
          `moor watch: serving /healthz /readyz /metrics /api/status on ${url}${flags.listenToken ? ' (bearer token required)' : ''} and the dashboard at ${url}/${flags.listenToken ? ' (open it as ' + url + '/#token=TOKEN)' : ''}`,
        ),
      onFinding: async (stack, change, report) => {
        log(prefix(stack) + findingLine(change, report));
        if (stack.session.config.notify && report.plan) await notifyFinding(stack, change, report.plan, report.outcomes, log);
      },
    });
    log('moor watch: stopped');
    return 0;
  } finally {
    stopListening();
    for (const s of sessions) await s.close().catch(() => undefined);
    await startLocalCloud.close();
  }
}

/** The stacks to watch: one unnamed (no stacks in the config), the --stack one, or all of them. */
function stackNames(stacks: readonly string[] | undefined, chosen: string | undefined, all: boolean | undefined): (string | undefined)[] {
  if (all) {
    if (!stacks) throw new UserError('--all-stacks: moor.config.yaml defines no stacks');
    if (chosen !== undefined) throw new UserError('give either --stack NAME or --all-stacks, not both');
    return [...stacks];
  }
  if (stacks && chosen === undefined)
    throw new UserError(
      `moor.config.yaml defines stacks (${stacks.join(', ')}): choose one with --stack NAME (or MOOR_STACK), or watch them all with --all-stacks`,
    );
  return [chosen];
}

function findingLine(change: 'found' | 'resolved', report: CycleReport): string {
  if (change === 'resolved') return 'in sync again (the earlier finding is resolved)';
  const what = report.findings.join('; ');
  switch (report.result) {
    case 'healed':
      return `repaired: ${what}`;
    case 'failed':
      return `reconcile failed: ${what}`;
    case 'drifted':
      return `drift found: ${what}`;
    default:
      return `not applied: ${what}`;
  }
}

async function notifyFinding(
  stack: StackTarget,
  change: 'found' | 'resolved',
  plan: Plan,
  outcomes: CycleReport['outcomes'],
  log: (line: string) => void,
): Promise<void> {
  const { sendNotification } = await import('../notify/send-notification.js');
  const { driftOf } = await import('../engine/workflow.js');
  const applied = outcomes !== undefined;
  try {
    await sendNotification(stack.session, {
      run: applied ? 'apply' : 'drift',
      plan: applied ? plan : driftOf(plan),
      outcomes,
      paths: stack.options.paths,
      cwd: stack.options.cwd,
      env: stack.options.env,
    });
  } catch (err) {
    log(
      `${stack.name ? `moor watch: stack ${stack.name}: ` : 'moor watch: '}could not notify the ${change === 'found' ? 'finding' : 'resolution'}: ${(err as Error).message}`,
    );
  }
}

/** One in-process local cloud for every stack of the watch (each session would otherwise start its own on the same data file). */
function sharedLocalCloud(): { start: StartLocalCloud; close(): Promise<void> } {
  let started: Promise<{ url: string; close(): Promise<void> }> | undefined;
  return {
    start: (options) => {
      started ??= import('../localcloud/server.js').then((m) => m.startLocalCloud(options));
      return started.then((cloud) => ({ url: cloud.url, close: () => Promise.resolve() }));
    },
    close: async () => {
      if (started) await (await started).close();
    },
  };
}
