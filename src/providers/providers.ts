// The set of service clients a run uses, created lazily from the configuration.
import { UserError } from '../core/diagnostics.js';
import type { ServiceName } from '../core/services.js';
import { AnalyticsClient } from './analytics.js';
import { apiSettings, type ApiSettingsOverrides } from './api-settings.js';
import { ArmClient } from './arm.js';
import { BillingClient } from './billing.js';
import { ConnectorClient, CONNECTOR_RETRY_STATUSES } from './connector.js';
import { checkEndpoint } from './endpoint.js';
import { FabricClient } from './fabric.js';
import { GraphClient } from './graph.js';
import { LcsClient } from './lcs.js';
import type { RequestContext } from '../core/request-context.js';
import { createTokenSource, type CommandRunner, type CredentialSource } from './token-source.js';
import type { ResponseLimits } from './response-limits.js';
import { Transport, type RequestSender, type TransportOptions } from './transport.js';

/** One client per service; the engine hands this to kind handlers in KindContext. */
export interface Providers extends ServiceSet {
  /** The same clients (transports, tokens, scheduler shared), every request attributed to `requests`. */
  forRequests(requests: RequestContext): Providers;
}

interface ServiceSet {
  readonly arm: ArmClient;
  readonly billing: BillingClient;
  readonly graph: GraphClient;
  readonly analytics: AnalyticsClient;
  readonly fabric: FabricClient;
  readonly lcs: LcsClient;
  readonly connector: ConnectorClient;
}

// What kinds see as their service clients (the ground floor declares the name, not the clients).
declare module '../core/kind.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: the kinds' ServiceClients is made to be Providers
  interface ServiceClients extends Providers {}
}

/** What all transports of a run share (retries, timeouts, events, scheduler, masker, test seams): passed through to each as it is. */
export type SharedTransportSettings = Omit<TransportOptions, 'service' | 'baseUrl' | 'token' | 'retryStatuses' | keyof ResponseLimits>;

export interface ProviderOptions extends SharedTransportSettings {
  /** Base URL per service (http:// only on loopback). */
  readonly endpoints: Readonly<Record<ServiceName, string>>;
  /** Per-service token sources; a service without one uses defaultToken. */
  readonly credentials?: Partial<Record<ServiceName, CredentialSource>>;
  /** The token of every service without its own source (the CLI passes MOOR_TOKEN). */
  readonly defaultToken?: string;
  /** api-version, namespace and version header per API (moor.config.yaml `apis:`); the documented values by default. */
  readonly apis?: ApiSettingsOverrides;
  /** Caps the wait between long-running-operation polls (tests, fast local clouds). */
  readonly pollIntervalMs?: number;
  /** Body size, pages, time per request (response-limits.ts). */
  readonly limits?: ResponseLimits;
  /** The run's environment (credentials' tokenEnv is read there). */
  readonly env?: Readonly<NodeJS.ProcessEnv>;
  /** Test seam: the tokenCommand runner. */
  readonly runCommand?: CommandRunner;
  /** The clock a command's token's expiry is judged by (the run's); the system's when absent. */
  readonly now?: () => Date;
}

/**
 * Builds the clients. Endpoints are checked at once (a plain http:// endpoint off loopback is a
 * UserError before anything is sent); each client and transport is made on first use, and a
 * token is requested at most once per run and service.
 */
export function createProviders(options: ProviderOptions): Providers {
  const bases = new Map<ServiceName, URL>();
  for (const [service, url] of Object.entries(options.endpoints) as [ServiceName, string][]) {
    if (url) bases.set(service, checkEndpoint(service, url));
  }
  const transports = new Map<ServiceName, Transport>();
  const transport = (service: ServiceName): Transport => {
    let t = transports.get(service);
    if (!t) {
      t = makeTransport(service, options, bases);
      transports.set(service, t);
    }
    return t;
  };
  const poll = { pollIntervalMs: options.pollIntervalMs };
  const apis = apiSettings(options.apis);
  const clients = (t: (service: ServiceName) => RequestSender): Providers => {
    const set = lazy<ServiceSet>({
      arm: () => new ArmClient(t('arm'), poll, apis),
      billing: () => new BillingClient(t('arm'), apis.billing),
      graph: () => new GraphClient(t('graph')),
      analytics: () => new AnalyticsClient(t('analytics')),
      fabric: () => new FabricClient(t('fabric')),
      lcs: () => new LcsClient(t('lcs'), apis.lcs),
      connector: () => new ConnectorClient(t('connector')),
    });
    const forRequests = (requests: RequestContext) => clients((s) => boundSender(transport(s), requests));
    return Object.assign(set, { forRequests });
  };
  return clients(transport);
}

/** The transport's sending (its state, token and scheduler shared), with `requests` on every request and poll wait. */
function boundSender(t: Transport, requests: RequestContext): RequestSender {
  return {
    service: t.service,
    baseUrl: t.baseUrl,
    get limits() {
      return t.limits;
    },
    request: (req) => t.request(req, requests),
    // Poll waits carry the step's address and end when the step is interrupted (the sent operation goes on; the next plan reads it).
    wait: (ms, poll, context) => t.wait(ms, poll, context ?? requests),
  };
}

/** The connector client alone, at an address of its own (notifications), built as createProviders builds it. */
export function createConnectorClient(endpoint: string, options: Omit<ProviderOptions, 'endpoints'>): ConnectorClient {
  return new ConnectorClient(makeTransport('connector', options, new Map([['connector', checkEndpoint('connector', endpoint)]])));
}

function makeTransport(service: ServiceName, o: Omit<ProviderOptions, 'endpoints'>, bases: ReadonlyMap<ServiceName, URL>): Transport {
  const baseUrl = bases.get(service);
  if (!baseUrl) throw new UserError(`no endpoint configured for service '${service}' (endpoints.${service} in moor.config.yaml, or MOOR_ENDPOINT)`);
  const { credentials, defaultToken, env, runCommand, now, apis: _apis, pollIntervalMs: _poll, limits, ...shared } = o;
  return new Transport({
    ...shared,
    ...limits,
    service,
    baseUrl,
    token: createTokenSource({ service, source: credentials?.[service], defaultToken, env, run: runCommand, ...(now ? { now: () => now().getTime() } : {}) }),
    retryStatuses: service === 'connector' ? CONNECTOR_RETRY_STATUSES : undefined,
  });
}

/** An object whose properties are built on first access and then kept. */
function lazy<T extends object>(factories: { readonly [K in keyof T]: () => T[K] }): T {
  const out = {} as T;
  for (const key of Object.keys(factories) as (keyof T)[]) {
    let value: T[typeof key] | undefined;
    Object.defineProperty(out, key, {
      enumerable: true,
      get: () => (value ??= factories[key]()),
    });
  }
  return out;
}
