// Turns driver and server failures into UserErrors that name the (redacted) state URL and never the password.
import { UserError } from '../../core/diagnostics.js';
import { scrub, type PostgresTarget } from './postgres-url.js';

/** SQLSTATE of a server error, or the Node error code (ECONNREFUSED…) of a network one. */
export function errorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

/**
 * A UserError saying what moor was doing (`doing`, e.g. 'reading state') on which database and why
 * it failed, in words a user can act on. UserErrors pass through unchanged.
 */
export function toUserError(err: unknown, target: PostgresTarget, doing: string): UserError {
  if (err instanceof UserError) return err;
  return new UserError(`PostgreSQL state ${target.redacted}: ${doing} failed: ${failureReason(err, target)}`);
}

/** Why a driver or server call failed, in a user's words, without the password. */
export function failureReason(err: unknown, target: PostgresTarget): string {
  const raw = err instanceof Error ? err.message : String(err);
  return scrub(explain(errorCode(err), raw, target), target.secrets);
}

function explain(code: string | undefined, message: string, target: PostgresTarget): string {
  const where = serverOf(target);
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where} (is the PostgreSQL server running and listening there?)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host of ${where} not found (check the host name in the URL)`;
    case 'ETIMEDOUT':
      return `connecting to ${where} timed out`;
    case 'ECONNRESET':
      return `the connection to ${where} was reset (${message})`;
    case '28P01':
    case '28000':
      return `authentication failed (${message}); check the user and password in the URL or PGPASSWORD`;
    case '3D000':
      return `${message}; create it (createdb) or fix the database name in the URL`;
    case '42501':
      return `permission denied (${message}); the role needs to create and write the tables moor_state and moor_lock`;
    case '53100':
      return `the database server's disk is full (${message})`;
    case '57P01':
      return `the database session was ended by the server or an administrator (${message})`;
    default:
      break;
  }
  if (/SASL|client password must be a string/i.test(message)) {
    return `the server asks for a password and none was given; put it in the URL (postgres://USER:PASSWORD@HOST/DB) or in PGPASSWORD`;
  }
  if (/timeout/i.test(message) && /connect/i.test(message)) return `connecting to ${where} timed out`;
  if (/Connection terminated|connection .*closed|not queryable/i.test(message)) return `the connection to ${where} ended (${message})`;
  return message;
}

function serverOf(target: PostgresTarget): string {
  try {
    const u = new URL(target.connectionString);
    return u.host || u.searchParams.get('host') || 'the local socket';
  } catch {
    return 'the server';
  }
}
