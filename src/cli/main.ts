// The moor command line: parses flags with commander, runs one command, renders errors once.
import { Command, CommanderError } from 'commander';
import { formatDiagnostic, UserError } from '../engine/diagnostics.js';
import { COMMANDS } from './commands/index.js';
import { bindEnvironment } from './env-options.js';

/** Runs the CLI and resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  const program = new Command('moor')
    .description('A declarative reconciler for container groups, auth contexts, push datasets and database jobs.')
    .option('--config <file>', 'configuration file (default: moor.config.yaml when present; env: MOOR_CONFIG)', process.env.MOOR_CONFIG)
    .option('--state <file|url>', 'state file or postgres:// URL (default: .moor/state.json; env: MOOR_STATE)', process.env.MOOR_STATE)
    .showHelpAfterError()
    .exitOverride();
  for (const register of COMMANDS) {
    register(program, (code) => { exitCode = code; });
  }
  // local-cloud documents its own variables (MOOR_LOCAL_CLOUD_PORT, MOOR_LATENCY, ...).
  bindEnvironment(program, process.env, new Set(['local-cloud']));
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (err) {
    return reportFailure(err);
  }
}

function reportFailure(err: unknown): number {
  if (err instanceof CommanderError) {
    // commander already printed the message (or help/version, which exit 0).
    return err.exitCode === 0 ? 0 : 1;
  }
  if (err instanceof UserError) {
    for (const d of err.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
    if (err.message) process.stderr.write(`Error: ${err.message}\n`);
    return 1;
  }
  process.stderr.write(`moor: internal error (a bug; please report it)\n${err instanceof Error ? err.stack : String(err)}\n`);
  return 1;
}
