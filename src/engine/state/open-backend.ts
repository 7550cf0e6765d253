// Picks the state backend from the --state option (MOOR_STATE, config): a file path or a postgres:// URL.
import type { EventSink } from '../../core/events.js';
import type { SecretRegistry } from '../../core/masker.js';
import { isAbsolute, resolve } from 'node:path';
import { UserError } from '../../core/diagnostics.js';
import { DEFAULT_STATE_FILE, FileStateBackend } from './file-backend.js';
import { PostgresStateBackend } from './postgres-backend.js';
import { parsePostgresUrl, redactLoose } from './postgres-url.js';
import type { StateBackend } from './types.js';

/**
 * The backend named by `spec` (default `.moor/state.json`); relative paths are taken from `cwd`.
 * A PostgreSQL URL's password goes to `secrets` (the run's masker): no output of the run shows it,
 * whatever message a driver or server composes.
 */
export function openStateBackend(spec: string | undefined, cwd: string, events?: EventSink, secrets?: SecretRegistry): StateBackend {
  const text = spec?.trim() || DEFAULT_STATE_FILE;
  if (/^postgres(ql)?:\/\//i.test(text)) {
    for (const s of parsePostgresUrl(text).secrets) secrets?.register(s);
    return new PostgresStateBackend(text);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw new UserError(`unsupported state location ${redactLoose(text)}: expected a file path or a postgres:// URL`);
  }
  const path = isAbsolute(text) ? text : resolve(cwd, text);
  return new FileStateBackend(path, text, events);
}
