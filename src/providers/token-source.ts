// Bearer tokens per service: the default token, an environment variable, or a command run once per run.
import { exec } from 'node:child_process';
import { UserError } from '../engine/diagnostics.js';
import type { ServiceName } from '../localcloud/types.js';

/** Where one service's token comes from (moor.config.yaml `credentials:`). */
export interface CredentialSource {
  /** Name of an environment variable holding the token. */
  readonly tokenEnv?: string;
  /** A shell command printing the token on stdout. */
  readonly tokenCommand?: string;
}

/** Runs a shell command and resolves with its stdout; the default runner of tokenCommand. */
export type CommandRunner = (command: string) => Promise<string>;

/** Gives a service's token, asking its source at most once. undefined: send no Authorization. */
export type TokenSource = () => Promise<string | undefined>;

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
  readonly env?: NodeJS.ProcessEnv;
  readonly run?: CommandRunner;
}

/** A cached token source; the command or variable is consulted on first use only. */
export function createTokenSource(options: TokenSourceOptions): TokenSource {
  let pending: Promise<string | undefined> | undefined;
  return () => {
    pending ??= fetchToken(options);
    return pending;
  };
}

async function fetchToken(o: TokenSourceOptions): Promise<string | undefined> {
  const env = o.env ?? process.env;
  if (o.source?.tokenCommand) return tokenFromCommand(o.service, o.source.tokenCommand, o.run ?? runShell);
  if (o.source?.tokenEnv) {
    const value = env[o.source.tokenEnv]?.trim();
    if (!value) throw new UserError(`credentials.${o.service}.tokenEnv names ${o.source.tokenEnv}, which is not set or empty`);
    return value;
  }
  const fallback = o.defaultToken?.trim();
  return fallback ? fallback : undefined;
}

async function tokenFromCommand(service: ServiceName, command: string, run: CommandRunner): Promise<string> {
  let out: string;
  try {
    out = await run(command);
  } catch (err) {
    // The command's output may hold a token or other secrets: report only how it ended.
    const how = err instanceof Error ? err.message : 'failed';
    throw new UserError(`credentials.${service}.tokenCommand failed (${how}); its output is not shown`);
  }
  const token = out.trim();
  if (!token) throw new UserError(`credentials.${service}.tokenCommand printed no token`);
  return token;
}
