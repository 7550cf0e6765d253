// The moor program: its global options, every command, their examples and environment variables, as
// commander definitions. main runs it; `npm run docs` writes a page per command from it.
import { Command, CommanderError } from 'commander';
import { COMMANDS, type SetExit } from './commands/index.js';
import { bindEnvironment } from './env-options.js';
import type { IoHost } from './io-host.js';
import { oneLineParseError } from './report-failure.js';
import { useColor } from './session-options.js';
import { versionText } from './version.js';
import { addExamples } from './examples.js';
import { addExitCodes } from './exit-codes.js';

/**
 * The program of one run: it reads and writes through `io`, takes defaults from `env` (which --no-color
 * changes for the run) and reports the exit code through `setExit`; `argv` names the command in a parse error.
 */
export function createProgram(io: IoHost, env: NodeJS.ProcessEnv, setExit: SetExit, argv: readonly string[] = []): Command {
  const program = new Command('moor')
    .description('A declarative reconciler for container groups, auth contexts, push datasets and database jobs.')
    // Not commander's .version(text): that reads package.json on every start, for every command.
    .option('-v, --version', 'print the versions of moor, Node.js and the state format')
    // No default from MOOR_CONFIG here: loadConfig reads the variable itself, so its errors name it.
    .option('--config <file>', 'configuration file (default: moor.config.yaml when present; env: MOOR_CONFIG)')
    .option('--state <file|url>', 'state file or postgres:// URL (default: .moor/state.json; env: MOOR_STATE)', env.MOOR_STATE)
    .option(
      '--stack <name>',
      'the stack (environment) of moor.config.yaml to work on: its paths, variables, state and endpoints (env: MOOR_STACK)',
      env.MOOR_STACK,
    )
    .option('--no-color', 'no colours in output (also NO_COLOR=1 or TERM=dumb; FORCE_COLOR=1 forces them)')
    .exitOverride();
  program.on('option:version', () => {
    const text = versionText();
    io.stdout.write(text + '\n');
    throw new CommanderError(0, 'commander.version', text); // as commander's own version option ends a run
  });
  // Set before the commands are added, so each inherits it.
  program.configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
    // Help wraps at a terminal's width; commander reads no width (80 columns) off a terminal.
    getOutHelpWidth: () => (io.stdout.isTTY ? io.stdout.columns : undefined) as number,
    getErrHelpWidth: () => (io.stderr.isTTY ? io.stderr.columns : undefined) as number,
    getOutHasColors: () => useColor(io.stdout, env),
    getErrHasColors: () => useColor(io.stderr, env),
    outputError: (message, write) => write(oneLineParseError(message, commandPathOf(program, argv))),
  });
  for (const register of COMMANDS) {
    register(program, io, setExit);
  }
  addExitCodes(program);
  addExamples(program);
  program.hook('preAction', () => {
    if (program.opts<{ color?: boolean }>().color === false) env.NO_COLOR = '1';
  });
  // local-cloud documents its own variables (MOOR_LOCAL_CLOUD_PORT, MOOR_LATENCY, ...).
  bindEnvironment(program, env, new Set(['local-cloud']));
  return program;
}

/** `plan ` for `moor plan --bogus`, `state ` for `moor state lst`: the known commands named, where their help is. */
function commandPathOf(program: Command, argv: readonly string[]): string {
  let path = '';
  let command = program;
  for (const arg of argv.slice(2)) {
    const sub = command.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!sub) break;
    path += sub.name() + ' ';
    command = sub;
  }
  return path;
}
