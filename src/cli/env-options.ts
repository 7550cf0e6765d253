// Every option also reads a MOOR_* environment variable (--detailed-exitcode: MOOR_DETAILED_EXITCODE),
// so a pipeline can configure moor without changing its command line. The command line wins.
import type { Command, Option } from 'commander';
import { UserError } from '../core/diagnostics.js';

const TRUE = /^(1|true|yes)$/i;
const FALSE = /^(0|false|no)$/i;

/**
 * Options whose values differ from command to command (`--output markdown` suits plan, not
 * validate or get) read a variable of their command: MOOR_PLAN_OUTPUT, MOOR_GET_OUTPUT.
 */
const PER_COMMAND = new Set(['output']);

/**
 * Options whose variable the config reads itself (loadConfig: for every command, and for a library
 * caller's env), so it is read and checked once, there: MOOR_PARALLELISM. Their help names it.
 */
const READ_BY_CONFIG = new Set(['parallelism']);

/** MOOR_ plus the option's long name in upper snake case; per command for PER_COMMAND options. */
export function envNameOf(option: Option, command?: Command): string {
  const name = option.attributeName();
  const scope = command && PER_COMMAND.has(name) ? `${topCommandOf(command).name()}_` : '';
  return (
    'MOOR_' +
    (scope + name)
      .replace(/[A-Z]/g, (c) => `_${c}`)
      .replace(/-/g, '_')
      .toUpperCase()
  );
}

/** `get` for `moor get usage`: the command right under the program. */
function topCommandOf(command: Command): Command {
  let top = command;
  while (top.parent?.parent) top = top.parent;
  return top;
}

/**
 * Names each option's variable in the help of every command (but those that read their own
 * variables), and fills options the command line left out from the environment just before the
 * command runs: a value through the option's own parser, a flag only when the variable says true
 * (so MOOR_PRUNE=false never turns pruning on; a value neither true nor false is an error).
 */
export function bindEnvironment(program: Command, env: NodeJS.ProcessEnv, skip: ReadonlySet<string>): void {
  const named = (c: Command) => c.options.filter((o) => !o.negate && o.long !== '--help' && !READ_BY_CONFIG.has(o.attributeName()));
  const walk = (command: Command) => {
    for (const sub of command.commands) {
      if (skip.has(sub.name())) continue;
      for (const option of named(sub)) if (!option.envVar) option.env(envNameOf(option, sub));
      walk(sub);
    }
  };
  walk(program);
  program.hook('preAction', (_root, action) => {
    if (skip.has(action.name())) return;
    for (const option of named(action)) fillFromEnvironment(action, option, env);
  });
}

function fillFromEnvironment(command: Command, option: Option, env: NodeJS.ProcessEnv): void {
  const key = option.attributeName();
  const source = command.getOptionValueSource(key);
  if (source !== undefined && source !== 'default') return;
  const raw = env[option.envVar ?? envNameOf(option, command)];
  if (raw === undefined || raw === '') return;
  if (option.required || option.optional) {
    command.setOptionValueWithSource(key, parsed(option, raw, command), 'env');
  } else if (TRUE.test(raw)) {
    command.setOptionValueWithSource(key, true, 'env');
  } else if (!FALSE.test(raw)) {
    // MOOR_DETAILED_EXITCODE=ture must not quietly turn into exit 0 for a pipeline.
    throw new UserError(`${option.envVar ?? envNameOf(option, command)}: '${raw}' must be true, 1 or yes (on), or false, 0 or no (off)`);
  }
}

function parsed(option: Option, raw: string, command: Command): unknown {
  const name = option.envVar ?? envNameOf(option, command);
  if (option.argChoices && !option.argChoices.includes(raw)) throw new UserError(`${name}: '${raw}' must be one of ${option.argChoices.join(', ')}`);
  try {
    return option.parseArg ? option.parseArg<unknown>(raw, undefined) : raw;
  } catch (err) {
    throw new UserError(`${name}: ${(err as Error).message}`);
  }
}
