// The knobs of the local cloud, with their defaults.
import { newFaultSeed, seededRandom } from './faults.js';

export interface LocalCloudOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Serve https with a self-signed certificate kept beside the data file; default false. */
  tls?: boolean;
  /** Also route provider namespaces of this brand word (e.g. Microsoft) as the seeds' `Vendor`. */
  brandWord?: string;
  /** A fixtures file (YAML) of projects, quotas, workspaces and conversations added at start. */
  fixtures?: string;
  /** JSON data file; without one, data lives in memory only. */
  dataFile?: string;
  /** The bearer token every request must carry; default `local-dev-token`. */
  token?: string;
  /** Also accept `TOKEN.EXPIRY` (EXPIRY in unix seconds) until it expires; default false. */
  expiringTokens?: boolean;
  /** Delay added to every response, in ms. */
  latencyMs?: number;
  /** Probability in [0,1] that a request meets an injected fault (500, 503, 429 or a dropped connection). */
  failRate?: number;
  /** Requests per second per service and request class (burst 10x); unset means unlimited. */
  rateLimit?: number;
  /** Fill demo data into empty stores; default true. */
  seed?: boolean;
  /** How long asynchronous provisioning takes, in ms; default 1000. */
  provisioningMs?: number;
  /** How long each phase (NotStarted, then InProgress) of a database-movement operation lasts, in ms; default provisioningMs. */
  operationPhaseMs?: number;
  /** The Retry-After (seconds) of an injected 429; default 1. Tests set 0 so a throttled retry does not wait a real second. */
  faultRetryAfterSeconds?: number;
  /** The window of the eventstreams workspace limit (50 requests per window), in ms; default the service's 10 s. Tests shorten it. */
  rateWindowMs?: number;
  /** Seed of fault injection's generator: the same seed, the same faults in request order. Default: a new random one. */
  faultSeed?: number;
  /** Random source of fault injection, instead of the seeded one (tests script it). */
  random?: () => number;
  /** The clock services see (tests move it instead of waiting). */
  now?: () => Date;
  /** A file the request log is appended to (request-log.ts): one JSON line per request. */
  requestLog?: string;
}

export const DEFAULT_TOKEN = 'local-dev-token';
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PROVISIONING_MS = 1000;
export const DEFAULT_FAULT_RETRY_AFTER_SECONDS = 1;

export type ResolvedOptions = Required<
  Omit<LocalCloudOptions, 'dataFile' | 'rateLimit' | 'brandWord' | 'fixtures' | 'rateWindowMs' | 'operationPhaseMs' | 'requestLog'>
> &
  Pick<LocalCloudOptions, 'dataFile' | 'rateLimit' | 'brandWord' | 'fixtures' | 'rateWindowMs' | 'operationPhaseMs' | 'requestLog'>;

export function resolveOptions(o: LocalCloudOptions): ResolvedOptions {
  const faultSeed = o.faultSeed ?? newFaultSeed();
  return {
    port: o.port ?? 0,
    host: o.host ?? DEFAULT_HOST,
    dataFile: o.dataFile,
    tls: o.tls ?? false,
    brandWord: o.brandWord,
    fixtures: o.fixtures,
    token: o.token ?? DEFAULT_TOKEN,
    expiringTokens: o.expiringTokens ?? false,
    latencyMs: Math.max(0, o.latencyMs ?? 0),
    failRate: Math.min(1, Math.max(0, o.failRate ?? 0)),
    rateLimit: o.rateLimit && o.rateLimit > 0 ? o.rateLimit : undefined,
    rateWindowMs: o.rateWindowMs && o.rateWindowMs > 0 ? o.rateWindowMs : undefined,
    seed: o.seed ?? true,
    provisioningMs: Math.max(0, o.provisioningMs ?? DEFAULT_PROVISIONING_MS),
    operationPhaseMs: o.operationPhaseMs === undefined ? undefined : Math.max(0, o.operationPhaseMs),
    faultRetryAfterSeconds: Math.max(0, o.faultRetryAfterSeconds ?? DEFAULT_FAULT_RETRY_AFTER_SECONDS),
    faultSeed,
    random: o.random ?? seededRandom(faultSeed),
    now: o.now ?? (() => new Date()),
    requestLog: o.requestLog,
  };
}
