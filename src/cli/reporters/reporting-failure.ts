// A command's user error is a result too: its reporter shows it (a jsonl stream ends with its failed
// summary, github annotates it, json and markdown print the failure as their report); the error
// itself is reported once, on stderr, by the CLI.
import { UserError } from '../../core/diagnostics.js';
import type { Reporter } from './reporter.js';

export async function reportingFailure<T>(reporter: Reporter, command: 'plan' | 'apply' | 'drift', body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof UserError) await reporter.events({ type: 'run_failed', command, error: err });
    throw err;
  }
}
