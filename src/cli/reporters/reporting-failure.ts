// A command's user error is a result too: its reporter shows it (a jsonl stream ends with its failed
// summary, github annotates it, json and markdown print the failure as their report); the error
// itself is reported once, on stderr, by the CLI.
import { UserError } from '../../core/diagnostics.js';
import { tellFailure } from '../../engine/operations/conversation.js';
import type { Reporter } from './reporter.js';

export async function reportingFailure<T>(reporter: Reporter, command: 'plan' | 'apply' | 'drift', body: () => T | Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    // The engine's operation said it already when the error ended the operation; before one started (bad arguments, a config that does not load) it is said here.
    if (err instanceof UserError) await tellFailure(reporter.events, command, err);
    throw err;
  }
}
