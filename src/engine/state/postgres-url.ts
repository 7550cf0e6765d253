// The --state postgres:// URL: the workspace it names, the URL pg connects with, and the redacted form for messages.
import { UserError } from '../../core/diagnostics.js';
import { BoundedMap } from '../../core/bounded-map.js';

export const DEFAULT_WORKSPACE = 'default';
const MAX_WORKSPACE = 200;
/** Query parameters pg reads a password from (`?password=` works as well as USER:PASSWORD@). */
const SECRET_PARAM = /([?&](?:ssl)?password=)([^&#]*)/gi;

export interface PostgresTarget {
  /** What pg connects with: the URL without moor's own parameters (workspace). */
  readonly connectionString: string;
  /** The state's key in moor_state: `?workspace=NAME`, default 'default'. */
  readonly workspace: string;
  /** The URL with its password replaced by *** : the only form that appears in messages. */
  readonly redacted: string;
  /** The password as written (raw and decoded), to scrub from any server or driver message; empty when none. */
  readonly secrets: readonly string[];
}

/** URLs parsed already: a watch's plans look at every other stack's state URL every interval. */
const parsed = new BoundedMap<string, PostgresTarget>(10_000);

export function parsePostgresUrl(text: string): PostgresTarget {
  return parsed.getOrMake(text, () => parse(text));
}

function parse(text: string): PostgresTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The text may hold a password: name it only through a best-effort redaction.
    throw new UserError(`invalid PostgreSQL state URL ${redactLoose(text)}: expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?workspace=NAME]`);
  }
  const secrets = unique([...(url.password ? [url.password, safeDecode(url.password)] : []), ...paramSecrets(url)]);
  const redacted = redactUrl(url);
  const workspaces = url.searchParams.getAll('workspace');
  if (workspaces.length > 1) throw new UserError(`state URL ${redacted} names more than one workspace`);
  const workspace = workspaces[0] ?? DEFAULT_WORKSPACE;
  if (workspace.trim() === '' || workspace.length > MAX_WORKSPACE) {
    throw new UserError(`state URL ${redacted}: workspace must be 1 to ${MAX_WORKSPACE} characters`);
  }
  const forPg = new URL(url.href);
  forPg.searchParams.delete('workspace');
  return { connectionString: forPg.href, workspace, redacted, secrets };
}

/** Replaces every occurrence of the secrets in a message (driver and server messages may echo the URL). */
export function scrub(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const s of secrets) if (s) out = out.split(s).join('***');
  return out;
}

/** The values of password parameters, as written and decoded. */
function paramSecrets(url: URL): string[] {
  const out: string[] = [];
  for (const m of url.search.matchAll(SECRET_PARAM)) {
    if (m[2]) out.push(m[2], safeDecode(m[2].replace(/\+/g, ' ')));
  }
  return out.filter((v) => v.length > 0);
}

function redactUrl(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = '***';
  return copy.href.replace(SECRET_PARAM, (_m, key: string, value: string) => (value ? `${key}***` : key));
}

/** For text that may not parse as a URL: hide whatever sits between '://user:' and '@', and password parameters. */
export function redactLoose(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, '$1***@').replace(/([?&](?:ssl)?password=)[^&#\s]*/gi, '$1***');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
