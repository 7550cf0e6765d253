// Global options shared by the commands that reach services: --config, --state, output colour.
import { InvalidArgumentError, type Command } from 'commander';
import type { Session } from '../engine/session.js';
import type { MoorConfig } from '../engine/config.js';
import type { StackChoice } from '../engine/config-stacks.js';
import { fanOut, noticeSink, type EventSink } from '../core/events.js';
import type { IoHost, OutputStream } from './io-host.js';

export interface GlobalOptions {
  readonly config?: string;
  readonly state?: string;
  /** --stack NAME, or MOOR_STACK (its source says which). */
  readonly stack?: StackChoice;
}

export function globalOptions(command: Command): GlobalOptions {
  const o = command.optsWithGlobals<{ config?: string; state?: string; stack?: string }>();
  let root = command;
  while (root.parent) root = root.parent;
  const fromEnv = root.getOptionValueSource('stack') === 'default';
  const stack: StackChoice | undefined = o.stack === undefined ? undefined : { name: o.stack, source: fromEnv ? 'env' : 'flag' };
  return { config: o.config, state: o.state, ...(stack ? { stack } : {}) };
}

/**
 * The config of a command that reads manifests or state, with the stack selected; without one
 * when the config has stacks, refused (`alternatives` names what else the command accepts).
 */
export async function runConfig(io: IoHost, command: Command, alternatives = ''): Promise<MoorConfig> {
  const { loadConfig, requireStackChoice } = await import('../engine/config.js');
  const g = globalOptions(command);
  const config = loadConfig(g.config, io.cwd, io.env, g.stack);
  requireStackChoice(config, alternatives);
  return config;
}

/**
 * `extra.events`: the command's own sinks of the run's events (progress, jsonl); notice lines go to
 * stderr, but for `retryLines` (the command's sink shows every retry as a line) not those of long retry waits.
 */
export interface SessionExtras {
  readonly events?: EventSink;
  readonly retryLines?: boolean;
  /** The run reads no manifests or state (get): it runs without a stack too. */
  readonly anyStack?: boolean;
  /** --parallelism: requests in flight per service, over the config's and MOOR_PARALLELISM. */
  readonly parallelism?: number;
  /** The stack to use instead of --stack (a saved plan's; each of --all-stacks). */
  readonly stack?: StackChoice;
}

/**
 * Opens a session for a command, runs `fn` with it and the run's events (an operation's host sends
 * what happens there), and always closes it (state backend, local cloud).
 */
export async function withSession<T>(
  io: IoHost,
  command: Command,
  fn: (session: Session, events: EventSink) => Promise<T>,
  extra: SessionExtras = {},
): Promise<T> {
  const g = globalOptions(command);
  const { openRunSession } = await import('./run-session.js');
  // The run's events: notice lines on stderr and the command's own sinks; an operation's host sends them on too.
  const events = fanOut(
    noticeSink((line) => io.stderr.write(line + '\n'), extra.retryLines ? { except: 'retry' } : {}),
    extra.events,
  );
  const session = await openRunSession({
    configFile: g.config,
    state: g.state,
    // The same stack as --stack names is named as the user did.
    stack: extra.stack === undefined || extra.stack.name === g.stack?.name ? g.stack : extra.stack,
    anyStack: extra.anyStack,
    ...(extra.parallelism !== undefined ? { parallelism: extra.parallelism } : {}),
    cwd: io.cwd,
    env: io.env,
    events,
    masker: io.masker,
    ...(io.now ? { now: io.now } : {}),
  });
  try {
    return await fn(session, events);
  } finally {
    await session.close();
  }
}

/**
 * Colour on a terminal unless NO_COLOR is set (also by --no-color) or TERM=dumb; FORCE_COLOR=1
 * turns it on anywhere (a CI log that shows colours), FORCE_COLOR=0 off.
 */
export function useColor(stream: OutputStream, env: Readonly<NodeJS.ProcessEnv>): boolean {
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
