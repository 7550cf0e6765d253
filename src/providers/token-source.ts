// Bearer tokens per service: the default token, an environment variable, or a command run
// again when its token nears expiry or is refused.
import { exec } from 'node:child_process';
import { UserError } from '../core/diagnostics.js';
import type { ServiceName } from '../core/services.js';
import { expiresSoon, parseTokenOutput, TokenOutputError, type IssuedToken } from './token-output.js';

/** Where one service's token comes from (moor.config.yaml `credentials:`). */
export interface CredentialSource {
  /** Name of an environment variable holding the token. */
  readonly tokenEnv?: string;
  /** A shell command printing the token on stdout: the bare token, or JSON with accessToken and expiresOn/expires_on. */
  readonly tokenCommand?: string;
  /** Where the config sets it, for messages (`notify`); default `credentials.SERVICE`. */
  readonly configKey?: string;
}

/** Runs a shell command and resolves with its stdout; the default runner of tokenCommand. */
export type CommandRunner = (command: string) => Promise<string>;

/**
 * Gives a service's token (undefined: send no Authorization). `renew`, when present, gives a
 * token other than `rejected` after the service refused it (401), or undefined when it cannot.
 */
export interface TokenSource {
  (): Promise<string | undefined>;
  renew?(rejected: string | undefined): Promise<string | undefined>;
}

const COMMAND_TIMEOUT_MS = 60_000;

/** Runs `command` through the shell; the error says only the exit status, never the output. */
export const runShell: CommandRunner = (command) =>
  new Promise((resolve, reject) => {
    exec(command, { timeout: COMMAND_TIMEOUT_MS, maxBuffer: 1024 * 1024, windowsHide: true }, (err, stdout) => {
      if (err) {
        const how = err.killed ? 'timed out' : `exited with status ${err.code ?? 'unknown'}`;
        reject(new Error(how));
      } else resolve(stdout);
    });
  });

export interface TokenSourceOptions {
  readonly service: ServiceName;
  readonly source?: CredentialSource;
  readonly defaultToken?: string;
  /** The run's environment, where tokenEnv is read (none given: no variable is set). */
  readonly env?: Readonly<NodeJS.ProcessEnv>;
  readonly run?: CommandRunner;
  /** The clock expiry is judged by (tests move it). */
  readonly now?: () => number;
}

/** A fetched token and when it was fetched. */
interface Held extends IssuedToken {
  readonly issuedAt: number;
}

/**
 * A cached token source. A variable or the default token is read once; a command runs on first
 * use, again when its token nears its expiry, and again (once per refused token) on renew.
 * Concurrent callers share one run.
 */
export function createTokenSource(options: TokenSourceOptions): TokenSource {
  const now = options.now ?? Date.now;
  let pending: Promise<Held | undefined> | undefined;
  let held: Held | undefined;
  const refetch = (): Promise<Held | undefined> => {
    held = undefined;
    const p = fetchToken(options, now);
    pending = p;
    p.then(
      (t) => {
        if (pending === p) held = t;
      },
      () => undefined,
    );
    return p;
  };
  const source: TokenSource = async () => {
    // A refetch's promise is also kept in `pending` for concurrent callers; its rejection reaches the caller here.
    const current = !pending || (held && expiresSoon(held, held.issuedAt, now())) ? refetch() : pending;
    return (await current)?.value;
  };
  if (options.source?.tokenCommand) {
    source.renew = async (rejected) => {
      // Another request may have renewed it already: use that token rather than run the command again.
      if (held && held.value !== rejected) return held.value;
      const next = held || !pending ? await refetch() : await pending;
      return next && next.value !== rejected ? next.value : undefined;
    };
  }
  return source;
}

async function fetchToken(o: TokenSourceOptions, now: () => number): Promise<Held | undefined> {
  const env = o.env ?? {};
  if (o.source?.tokenCommand) return tokenFromCommand(o.source.configKey ?? `credentials.${o.service}`, o.source.tokenCommand, o.run ?? runShell, now);
  if (o.source?.tokenEnv) {
    const value = env[o.source.tokenEnv]?.trim();
    if (!value) throw new UserError(`${o.source.configKey ?? `credentials.${o.service}`}.tokenEnv names ${o.source.tokenEnv}, which is not set or empty`);
    return { value, issuedAt: now() };
  }
  const fallback = o.defaultToken?.trim();
  return fallback ? { value: fallback, issuedAt: now() } : undefined;
}

/** `key`: where the config sets the command (`credentials.arm`, `notify`), for messages. */
async function tokenFromCommand(key: string, command: string, run: CommandRunner, now: () => number): Promise<Held> {
  let out: string;
  try {
    out = await run(command);
  } catch (err) {
    // The command's output may hold a token or other secrets: report only how it ended.
    const how = err instanceof Error ? err.message : 'failed';
    throw new UserError(`${key}.tokenCommand failed (${how}); its output is not shown`);
  }
  const issuedAt = now();
  try {
    return { ...parseTokenOutput(out, issuedAt), issuedAt };
  } catch (err) {
    if (err instanceof TokenOutputError) throw new UserError(`${key}.tokenCommand ${err.message}; its output is not shown`);
    throw err;
  }
}
