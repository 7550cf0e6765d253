// Renders the one failure that ended a run, once: a user's mistake in a line, a bug with its stack.
import { CommanderError } from 'commander';
import { formatDiagnostic, UserError } from '../core/diagnostics.js';
import { fileErrorMessage } from '../engine/file-errors.js';
import { lineText } from '../core/foreign-text.js';

/** The code of a diagnostic for a manifest path given on the command line that is not there. */
const MISSING_PATH = 'load.path';

export function reportFailure(err: unknown, write: (text: string) => void): number {
  if (err instanceof CommanderError) {
    // commander already printed the message (or help/version, which exit 0).
    return err.exitCode === 0 ? 0 : 1;
  }
  if (err instanceof UserError) {
    for (const d of err.diagnostics) write(formatDiagnostic(d) + '\n');
    // A path that is not there is named in one line: a count of errors under it would say it twice.
    const onlyMissingPaths = err.diagnostics.length > 0 && err.diagnostics.every((d) => d.code === MISSING_PATH);
    if (err.message && !onlyMissingPaths) write(`error: ${lineText(err.message)}\n`);
    if (err.example)
      write(
        err.example
          .split('\n')
          .map((line) => `  ${lineText(line)}\n`)
          .join(''),
      );
    return 1;
  }
  // A file moor was pointed at is a directory, unreadable, missing: the user's to fix, not a bug.
  const fileProblem = fileErrorMessage(err);
  if (fileProblem) {
    write(`error: ${lineText(fileProblem)}\n`);
    return 1;
  }
  write(`moor: internal error (a bug; please report it)\n${err instanceof Error ? err.stack : String(err)}\n`);
  return 1;
}

/**
 * commander's parse errors as one line: `error: unknown option '--bogus' (did you mean --prune?)`,
 * with where to read more, instead of the whole help.
 */
export function oneLineParseError(message: string, commandPath: string): string {
  const text = message
    .trim()
    .replace(/\s*\n\s*\(Did you mean (.+?)\?\)/, ' (did you mean $1?)')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\.$/, '');
  return `${text}; see 'moor ${commandPath}--help'\n`;
}
