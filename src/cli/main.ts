// The moor command line: parses flags with commander, runs one command, renders errors once.
import { Command, CommanderError } from 'commander';
import { Masker, maskedOutput } from '../core/masker.js';
import { COMMANDS } from './commands/index.js';
import { bindEnvironment } from './env-options.js';
import type { IoHost } from './io-host.js';
import { oneLineParseError, reportFailure } from './report-failure.js';
import { useColor } from './session-options.js';
import { versionText } from './version.js';
import { addExamples } from './examples.js';

/** Runs the CLI with `io` (the process's in bin/moor.js) and resolves to the exit code. */
export async function main(argv: readonly string[], host: IoHost): Promise<number> {
  // Secrets found during the run (resolved placeholders, tokens, URL passwords) never reach the output.
  const masker = new Masker();
  masker.register(host.env.MOOR_TOKEN);
  // --no-color is NO_COLOR for everything that prints: the run's own environment, never the process's.
  const env: NodeJS.ProcessEnv = { ...host.env };
  const io: IoHost = { ...host, env, masker, stdout: maskedOutput(host.stdout, masker), stderr: maskedOutput(host.stderr, masker) };
  let exitCode = 0;
  const program = new Command('moor')
    .description('A declarative reconciler for container groups, auth contexts, push datasets and database jobs.')
    // Not commander's .version(text): that reads package.json on every start, for every command.
    .option('-v, --version', 'print the versions of moor, Node.js and the state format')
    // No default from MOOR_CONFIG here: loadConfig reads the variable itself, so its errors name it.
    .option('--config <file>', 'configuration file (default: moor.config.yaml when present; env: MOOR_CONFIG)')
    .option('--state <file|url>', 'state file or postgres:// URL (default: .moor/state.json; env: MOOR_STATE)', env.MOOR_STATE)
    .option('--stack <name>', 'the stack (environment) of moor.config.yaml to work on: its paths, variables, state and endpoints (env: MOOR_STACK)', env.MOOR_STACK)
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
    register(program, io, (code) => { exitCode = code; });
  }
  addExamples(program);
  program.hook('preAction', () => {
    if (program.opts<{ color?: boolean }>().color === false) env.NO_COLOR = '1';
  });
  // local-cloud documents its own variables (MOOR_LOCAL_CLOUD_PORT, MOOR_LATENCY, ...).
  bindEnvironment(program, env, new Set(['local-cloud']));
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (err) {
    return reportFailure(err, (text) => io.stderr.write(text));
  }
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
