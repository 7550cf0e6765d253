// The moor command line: parses flags with commander, runs one command, renders errors once.
import { Masker, maskedOutput } from '../core/masker.js';
import type { IoHost } from './io-host.js';
import { createProgram } from './program.js';
import { reportFailure } from './report-failure.js';

/** Runs the CLI with `io` (the process's in bin/moor.js) and resolves to the exit code. */
export async function main(argv: readonly string[], host: IoHost): Promise<number> {
  // Secrets found during the run (resolved placeholders, tokens, URL passwords) never reach the output.
  const masker = new Masker();
  masker.register(host.env.MOOR_TOKEN);
  // --no-color is NO_COLOR for everything that prints: the run's own environment, never the process's.
  const env: NodeJS.ProcessEnv = { ...host.env };
  const io: IoHost = { ...host, env, masker, stdout: maskedOutput(host.stdout, masker), stderr: maskedOutput(host.stderr, masker) };
  let exitCode = 0;
  const program = createProgram(
    io,
    env,
    (code) => {
      exitCode = code;
    },
    argv,
  );
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (err) {
    return reportFailure(err, (text) => io.stderr.write(text));
  }
}
