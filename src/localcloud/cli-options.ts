// Turns the `moor local-cloud` flags (or their MOOR_* environment variables) into LocalCloudOptions.
import { UserError } from '../core/diagnostics.js';
import { BRAND_WORD } from './brand-word.js';
import { MAX_FAULT_SEED, newFaultSeed } from './faults.js';
import type { LocalCloudOptions } from './options.js';

/** Flag values as commander hands them over: strings, absent when not given. */
export interface LocalCloudFlags {
  port?: string;
  host?: string;
  data?: string;
  token?: string;
  expiringTokens?: boolean;
  latency?: string;
  failRate?: string;
  faultSeed?: string;
  rateLimit?: string;
  provisioningMs?: string;
  rateWindowMs?: string;
  operationPhaseMs?: string;
  faultRetryAfter?: string;
  seed?: boolean;
  tls?: boolean;
  brandWord?: string;
  fixtures?: string;
  requestLog?: string;
}

export const DEFAULT_DATA_FILE = '.moor/local-cloud.json';

type Env = Readonly<Record<string, string | undefined>>;

function numberFlag(raw: string | undefined, flag: string, check: (n: number) => boolean, rule: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || !check(n)) throw new UserError(`${flag} must be ${rule}; got '${raw}'`);
  return n;
}

/** Flags win over environment variables; bad values are a UserError naming the flag. */
export function localCloudOptions(flags: LocalCloudFlags, environment: Env = process.env): LocalCloudOptions {
  // An empty variable counts as unset, as shells and CI templates often leave them empty.
  const env = Object.fromEntries(Object.entries(environment).filter(([, v]) => v !== undefined && v !== ''));
  const port = numberFlag(flags.port ?? env.MOOR_LOCAL_CLOUD_PORT, '--port', (n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'an integer from 0 to 65535');
  const latencyMs = numberFlag(flags.latency ?? env.MOOR_LATENCY, '--latency', (n) => n >= 0, 'a number of milliseconds, 0 or more');
  const failRate = numberFlag(flags.failRate ?? env.MOOR_FAIL_RATE, '--fail-rate', (n) => n >= 0 && n <= 1, 'a probability from 0 to 1');
  const faultSeed = numberFlag(
    flags.faultSeed ?? env.MOOR_FAULT_SEED,
    '--fault-seed',
    (n) => Number.isInteger(n) && n >= 0 && n <= MAX_FAULT_SEED,
    `an integer from 0 to ${MAX_FAULT_SEED}`,
  );
  const rateLimit = numberFlag(flags.rateLimit ?? env.MOOR_RATE_LIMIT, '--rate-limit', (n) => n > 0, 'a number of requests per second, more than 0');
  const provisioningMs = numberFlag(
    flags.provisioningMs ?? env.MOOR_PROVISIONING_MS,
    '--provisioning-ms',
    (n) => n >= 0,
    'a number of milliseconds, 0 or more',
  );
  const rateWindowMs = numberFlag(
    flags.rateWindowMs ?? env.MOOR_LOCAL_CLOUD_RATE_WINDOW_MS,
    '--rate-window-ms',
    (n) => n > 0,
    'a number of milliseconds, more than 0',
  );
  const operationPhaseMs = numberFlag(
    flags.operationPhaseMs ?? env.MOOR_LOCAL_CLOUD_ASYNC_MS,
    '--operation-phase-ms',
    (n) => n >= 0,
    'a number of milliseconds, 0 or more',
  );
  const faultRetryAfterSeconds = numberFlag(
    flags.faultRetryAfter ?? env.MOOR_FAULT_RETRY_AFTER,
    '--fault-retry-after',
    (n) => n >= 0,
    'a number of seconds, 0 or more',
  );
  const brandWord = flags.brandWord ?? env.MOOR_LOCAL_CLOUD_BRAND_WORD;
  if (brandWord !== undefined && !BRAND_WORD.test(brandWord))
    throw new UserError(`--brand-word must be one word of letters and digits (e.g. Microsoft); got '${brandWord}'`);
  const token = flags.token ?? env.MOOR_TOKEN;
  if (token !== undefined && (token.trim() === '' || /\s/.test(token))) throw new UserError('--token must be a non-empty token without spaces');
  return {
    port: port ?? 0,
    host: flags.host ?? env.MOOR_LOCAL_CLOUD_HOST,
    dataFile: flags.data ?? env.MOOR_LOCAL_CLOUD_DATA ?? DEFAULT_DATA_FILE,
    token,
    expiringTokens: flags.expiringTokens,
    latencyMs,
    failRate,
    // Chosen here when faults are on, so the command can print the seed that replays them.
    faultSeed: faultSeed ?? (failRate ? newFaultSeed() : undefined),
    rateLimit,
    provisioningMs,
    rateWindowMs,
    operationPhaseMs,
    faultRetryAfterSeconds,
    seed: flags.seed ?? true,
    brandWord,
    fixtures: flags.fixtures ?? env.MOOR_LOCAL_CLOUD_FIXTURES,
    requestLog: flags.requestLog ?? env.MOOR_LOCAL_CLOUD_REQUEST_LOG,
    tls: flags.tls ?? (env.MOOR_LOCAL_CLOUD_TLS === '1' || env.MOOR_LOCAL_CLOUD_TLS === 'true'),
  };
}
