// The composition root of a run: opens what the engine's Session names — configuration, the target
// (configured services or the built-in local cloud started in-process), the provider clients over
// one request scheduler, and the state backend. The engine imports no provider; this room joins them.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fixturesFile, loadConfig, requireStackChoice, usesLocalCloud, type MoorConfig } from '../engine/config.js';
import type { StackChoice } from '../engine/config-stacks.js';
import { openStackState } from '../engine/state/stack-state.js';
import { transportSettings, withWaitNotices } from '../engine/transport-settings.js';
import type { Session } from '../engine/session.js';
import { createProviders, type ProviderOptions } from '../providers/providers.js';
import { SERVICE_NAMES, type ServiceName } from '../core/services.js';
import type { KindCatalog } from '../core/kind-catalog.js';
import { RequestScheduler } from '../providers/request-scheduler.js';
import type { EventSink } from '../core/events.js';
import { Masker } from '../core/masker.js';
import type { Guard } from '../engine/guard.js';

export interface SessionOptions {
  readonly configFile?: string;
  readonly state?: string;
  /** The stack to work on, and how it was named (--stack, MOOR_STACK, a saved plan's), for messages. */
  readonly stack?: StackChoice;
  /** Requests in flight per service (--parallelism), over the config's and MOOR_PARALLELISM: the scheduler is made with it, once. */
  readonly parallelism?: number;
  /** The run reads no manifests or state: no stack needs choosing when the config has stacks. */
  readonly anyStack?: boolean;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * The run's one event stream (core/events.ts): notices, a lock taken over, retries, throttles,
   * poll waits, and what plan and apply emit. The CLI fans it out to its sinks (notice lines on
   * stderr, listr2, plain lines, jsonl); no header, token or body is in any event.
   */
  readonly events: EventSink;
  /** The kinds this run knows (the CLI hands in the built-in ones). */
  readonly kinds: KindCatalog;
  /** Rules over manifests and changes beyond the kinds' own (the CLI hands in the policies). */
  readonly guard?: Guard;
  /** Starts the built-in local cloud when no endpoint is configured; handed in so the engine never loads it. */
  readonly startLocalCloud: StartLocalCloud;
  /** The run's masker (the CLI masks the run's output with it); a new one when not given. */
  readonly masker?: Masker;
  /** The User-Agent of the run's requests, asked for each request (moor watch: the replica, the stack and its lease). */
  readonly userAgent?: () => string;
  /** The run's clock, by which a token's expiry is judged (a test moves it with the local cloud's); the system's when absent. */
  readonly now?: () => Date;
}

/** What a session needs of the local cloud: start one, get its address, close it. */
export type StartLocalCloud = (options: {
  port: number;
  dataFile: string;
  token: string;
  provisioningMs?: number;
  operationPhaseMs?: number;
  fixtures?: string;
}) => Promise<{ readonly url: string; close(): Promise<void> }>;

export const DEFAULT_PARALLELISM = 10;
export const LOCAL_CLOUD_DATA = '.moor/local-cloud.json';
const LOCAL_POLL_MS = 250;

export async function openSession(options: SessionOptions): Promise<Session> {
  const config = loadConfig(options.configFile, options.cwd, options.env, options.stack);
  if (!options.anyStack) requireStackChoice(config);
  const { events, divert } = eventRoute(options.events);
  const masker = options.masker ?? new Masker();
  masker.register(options.env.MOOR_TOKEN);
  const backend = openStackState(options.state, config, options.cwd, events, masker);
  if (config.stack) events({ type: 'notice', message: `moor: stack ${config.stack.name} (state ${backend.location})` });
  const parallelism = options.parallelism ?? config.parallelism ?? DEFAULT_PARALLELISM;
  // Fencing: a run that lost its state lock sends no write request (GETs are harmless).
  const beforeWrite = async () => backend.assertLockHeld?.();
  // Limits from MOOR_MAX_*, and every long wait shown as one notice line.
  const { maxRetryAfterMs, ...limits } = transportSettings(options.env);
  const target = usesLocalCloud(config) ? await builtInCloud(options, config) : configuredServices(config, options.env);
  const scheduler = new RequestScheduler({ concurrency: parallelism });
  const providers = createProviders({
    ...target.services,
    apis: config.apis,
    env: options.env,
    pollIntervalMs: target.pollIntervalMs,
    beforeWrite,
    limits,
    maxRetryAfterMs,
    events: withWaitNotices(events),
    secrets: masker,
    scheduler,
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const { cloud } = target;
  return {
    config,
    kinds: options.kinds,
    guard: options.guard,
    providers,
    backend,
    ...(options.state ? { stateGiven: options.state } : {}),
    parallelism,
    scheduler,
    pollIntervalMs: target.pollIntervalMs,
    events,
    divert,
    masker,
    ...(cloud ? { localCloudUrl: cloud.url } : {}),
    close: async () => {
      await backend.close();
      await cloud?.close();
    },
  };
}

/** The session's event stream: to the sink it was opened with, or to the latest sink diverted to (the operation running). */
function eventRoute(opened: EventSink): Pick<Session, 'events' | 'divert'> {
  const routes: EventSink[] = [opened];
  return {
    events: (e) => routes[routes.length - 1](e),
    divert: (sink) => {
      routes.push(sink);
      return () => {
        const at = routes.lastIndexOf(sink);
        if (at > 0) routes.splice(at, 1);
      };
    },
  };
}

/** Where the run's requests go and with which tokens; the built-in local cloud when it serves the run. */
interface Target {
  readonly services: Pick<ProviderOptions, 'endpoints' | 'credentials' | 'defaultToken'>;
  readonly pollIntervalMs?: number;
  readonly cloud?: { readonly url: string; close(): Promise<void> };
}

function configuredServices(config: MoorConfig, env: NodeJS.ProcessEnv): Target {
  const services = { endpoints: config.endpoints as Record<ServiceName, string>, credentials: config.credentials, defaultToken: env.MOOR_TOKEN };
  return { services, pollIntervalMs: pollInterval(env) };
}

/** Starts the built-in local cloud in-process, its data under .moor, with a token of this run's own. */
async function builtInCloud(options: SessionOptions, config: MoorConfig): Promise<Target> {
  const dataFile = resolve(options.cwd, LOCAL_CLOUD_DATA);
  mkdirSync(resolve(options.cwd, '.moor'), { recursive: true });
  const token = randomBytes(16).toString('hex');
  const provisioningMs = milliseconds(options.env.MOOR_PROVISIONING_MS);
  const operationPhaseMs = milliseconds(options.env.MOOR_LOCAL_CLOUD_ASYNC_MS);
  const fixtures = fixturesFile(config, options.cwd);
  const cloud = await options.startLocalCloud({ port: 0, dataFile, token, provisioningMs, operationPhaseMs, fixtures });
  options.events({ type: 'notice', message: `moor: no endpoints configured; using the built-in local cloud at ${cloud.url} (data in ${LOCAL_CLOUD_DATA})` });
  const endpoints = Object.fromEntries(SERVICE_NAMES.map((s) => [s, cloud.url])) as Record<ServiceName, string>;
  // The local cloud answers fast: poll it often, or a quick start waits on timers.
  return { services: { endpoints, defaultToken: token }, pollIntervalMs: pollInterval(options.env) ?? LOCAL_POLL_MS, cloud };
}

function pollInterval(env: NodeJS.ProcessEnv): number | undefined {
  return milliseconds(env.MOOR_POLL_INTERVAL_MS);
}

/** A whole number of milliseconds from a variable, or undefined when unset or not one. */
function milliseconds(text: string | undefined): number | undefined {
  return text && /^\d+$/.test(text) ? Number(text) : undefined;
}
