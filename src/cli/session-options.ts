// Global options shared by the commands that reach services: --config, --state, output colour.
import { InvalidArgumentError, type Command } from 'commander';
import { UserError } from '../core/diagnostics.js';
import type { Session } from '../engine/session.js';
import { fanOut, noticeSink, type EventSink } from '../core/events.js';

export interface GlobalOptions {
  readonly config?: string;
  readonly state?: string;
}

export function globalOptions(command: Command): GlobalOptions {
  const o = command.optsWithGlobals() as { config?: string; state?: string };
  return { config: o.config, state: o.state };
}

/** Refuses --notify without a notify: section before any work is done. */
export function requireNotify(session: Session, notify: boolean | undefined): void {
  if (notify && !session.config.notify) {
    throw new UserError('--notify needs a notify: section in moor.config.yaml (serviceUrl, conversationId, bot, tokenEnv); see README "Notifications"');
  }
}

/** Opens a session for a command, runs `fn`, and always closes it (state backend, local cloud). */
/**
 * `extra.events`: the command's own sinks of the run's events (progress, jsonl); notice lines go to
 * stderr, but for `retryLines` (the command's sink shows every retry as a line) not those of long retry waits.
 */
export async function withSession<T>(command: Command, fn: (session: Session) => Promise<T>, extra: { readonly events?: EventSink; readonly retryLines?: boolean } = {}): Promise<T> {
  const g = globalOptions(command);
  // Loaded here: --help, --version and validate never pay for the state backends and providers.
  const { openSession } = await import('../engine/session.js');
  const { BUILT_IN_KINDS } = await import('../resources/registry.js');
  const session = await openSession({
    configFile: g.config,
    state: g.state,
    cwd: process.cwd(),
    env: process.env,
    events: fanOut(noticeSink((line) => process.stderr.write(line + '\n'), extra.retryLines ? { except: 'retry' } : {}), extra.events),
    kinds: BUILT_IN_KINDS,
    // Imported only when used, so a run against real services never loads the local cloud.
    startLocalCloud: async (options) => (await import('../localcloud/server.js')).startLocalCloud(options),
  });
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

/**
 * Colour on a terminal unless NO_COLOR is set (also by --no-color) or TERM=dumb; FORCE_COLOR=1
 * turns it on anywhere (a CI log that shows colours), FORCE_COLOR=0 off.
 */
export function useColor(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return !/^(0|false|no)$/i.test(env.FORCE_COLOR);
  if (env.TERM === 'dumb') return false;
  return Boolean(stream.isTTY);
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function parseOutput<T extends string>(value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** --lock-timeout SECONDS (env MOOR_LOCK_TIMEOUT): a number of seconds, 0 or more. */
export function lockTimeoutArg(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0) throw new InvalidArgumentError(`must be a number of seconds, not '${value}'`);
  return seconds;
}

/** `--lock=false`, `--lock true`, MOOR_LOCK=no: true, false, 1, 0, yes or no. */
export function booleanArg(value: string): boolean {
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new InvalidArgumentError(`must be true or false, not '${value}'`);
}
