// The --state postgres:// URL: workspace, what pg receives, and a password that never reaches a message. No server needed.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/diagnostics.js';
import { openStateBackend } from '../../src/engine/state/open-backend.js';
import { PostgresStateBackend } from '../../src/engine/state/postgres-backend.js';
import { toUserError } from '../../src/engine/state/postgres-errors.js';
import { parsePostgresUrl } from '../../src/engine/state/postgres-url.js';

describe('parsePostgresUrl', () => {
  it('takes the workspace from ?workspace= and hands pg the URL without it', () => {
    const t = parsePostgresUrl('postgres://moor:s3cret@db.example.net:5433/moor?workspace=prod&sslmode=require');
    expect(t.workspace).toBe('prod');
    expect(t.connectionString).toBe('postgres://moor:s3cret@db.example.net:5433/moor?sslmode=require');
    expect(t.redacted).toBe('postgres://moor:***@db.example.net:5433/moor?workspace=prod&sslmode=require');
  });

  it("defaults the workspace to 'default' and leaves a URL without password as it is", () => {
    const t = parsePostgresUrl('postgresql://moor@db.example.net/moor');
    expect(t.workspace).toBe('default');
    expect(t.redacted).toBe('postgresql://moor@db.example.net/moor');
    expect(t.secrets).toEqual([]);
  });

  it('knows the password both as written and percent-decoded, to scrub either', () => {
    expect(parsePostgresUrl('postgres://u:p%40ss%2Fw@h/db').secrets).toEqual(['p%40ss%2Fw', 'p@ss/w']);
  });

  it('refuses an empty or repeated workspace', () => {
    expect(() => parsePostgresUrl('postgres://h/db?workspace=')).toThrow(/workspace must be 1 to 200 characters/);
    expect(() => parsePostgresUrl('postgres://h/db?workspace=a&workspace=b')).toThrow(/more than one workspace/);
  });

  it('names an unparsable URL without its password', () => {
    const err = (() => {
      try {
        parsePostgresUrl('postgres://moor:hunter2@[bad/db');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain('postgres://moor:***@');
    expect((err as Error).message).not.toContain('hunter2');
  });
});

describe('open-backend', () => {
  it('opens the PostgreSQL backend for postgres:// and postgresql:// without connecting', () => {
    const a = openStateBackend('postgres://moor:hunter2@127.0.0.1:1/moor', '/tmp');
    const b = openStateBackend('postgresql://moor:hunter2@127.0.0.1:1/moor?workspace=ci', '/tmp');
    expect(a).toBeInstanceOf(PostgresStateBackend);
    expect(b).toBeInstanceOf(PostgresStateBackend);
    expect(a.location).toBe('postgres://moor:***@127.0.0.1:1/moor');
    expect(b.location).toBe('postgresql://moor:***@127.0.0.1:1/moor?workspace=ci');
  });

  it('names another scheme as unsupported without its password', () => {
    expect(() => openStateBackend('mysql://root:hunter2@db/x', '/tmp')).toThrow('unsupported state location mysql://root:***@db/x');
  });
});

describe('errors', () => {
  const target = parsePostgresUrl('postgres://moor:hunter2@db.example.net/moor');

  it('a server that is down is a clear UserError naming the server, without the password', async () => {
    const backend = new PostgresStateBackend('postgres://moor:hunter2@127.0.0.1:1/moor');
    const err = await backend.read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      'PostgreSQL state postgres://moor:***@127.0.0.1:1/moor: connecting for reading state failed: connection refused by 127.0.0.1:1 (is the PostgreSQL server running and listening there?)',
    );
    await backend.close();
  });

  it('scrubs the password from any driver or server message that echoes it', () => {
    const err = toUserError(new Error('could not parse postgres://moor:hunter2@db.example.net/moor'), target, 'reading state');
    expect(err.message).not.toContain('hunter2');
    expect(err.message).toContain('postgres://moor:***@db.example.net/moor');
  });

  it('explains failed authentication', () => {
    const pgError = Object.assign(new Error('password authentication failed for user "moor"'), { code: '28P01' });
    expect(toUserError(pgError, target, 'connecting').message).toBe(
      'PostgreSQL state postgres://moor:***@db.example.net/moor: connecting failed: authentication failed (password authentication failed for user "moor"); check the user and password in the URL or PGPASSWORD',
    );
  });
});

describe('a password given as a query parameter', () => {
  it('is redacted in the URL moor names and scrubbed from driver messages', () => {
    const t = parsePostgresUrl('postgres://moor@db.example.net/moor?sslmode=require&password=hunter2%21x&workspace=ci');
    expect(t.redacted).toBe('postgres://moor@db.example.net/moor?sslmode=require&password=***&workspace=ci');
    expect(t.secrets).toEqual(['hunter2%21x', 'hunter2!x']);
    const err = toUserError(new Error('bad connection postgres://moor@db.example.net/moor?password=hunter2!x'), t, 'reading state');
    expect(err.message).not.toContain('hunter2');
  });

  it('is hidden in an unparsable URL too', () => {
    const err = (() => {
      try {
        parsePostgresUrl('postgres://[bad/db?password=hunter2');
      } catch (e) {
        return e;
      }
    })();
    expect((err as Error).message).not.toContain('hunter2');
    expect((err as Error).message).toContain('password=***');
  });
});
