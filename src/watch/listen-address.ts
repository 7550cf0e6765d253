// moor watch --listen HOST:PORT: where the HTTP endpoints are served; beyond loopback only with a bearer token.
import { isIP } from 'node:net';
import { UserError } from '../core/diagnostics.js';

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
  readonly loopback: boolean;
}

/** `127.0.0.1:9464`, `[::1]:9464`, `:9464` (loopback), `0.0.0.0:9464`; port 0 picks a free one. */
export function parseListen(text: string): ListenAddress {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new UserError(`--listen must be HOST:PORT (e.g. 127.0.0.1:9464), not '${text}'`);
  // An optional group that did not match is undefined, whatever RegExpExecArray's type says.
  const host = (m[1] as string | undefined) ?? (m[2] || '127.0.0.1');
  if (host !== 'localhost' && isIP(host) === 0)
    throw new UserError(`--listen ${text}: give an IP address to listen on (127.0.0.1, ::1, 0.0.0.0), not a host name`);
  return { host, port, loopback: isLoopback(host) };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** Another address than loopback serves the network: refused without a token. */
export function requireToken(address: ListenAddress, token: string | undefined): void {
  if (!address.loopback && !token) {
    throw new UserError(
      `--listen ${address.host}:${address.port} serves beyond this machine: give --listen-token TOKEN (clients send Authorization: Bearer TOKEN), or listen on 127.0.0.1`,
    );
  }
}

/**
 * A name given with --listen-host: a host name (`watch.example.com`, answered on any port, as a proxy
 * in front forwards it) or `NAME:PORT` (that port only).
 */
export function parseListenHost(text: string): string {
  const name = text.trim().toLowerCase();
  if (!/^(?:\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(?::\d{1,5})?$/.test(name)) {
    throw new UserError(`--listen-host must be a host name, optionally with :PORT (e.g. watch.example.com), not '${text}'`);
  }
  return name;
}

/**
 * Whether a request's Host names this listener: its own address (on a loopback one also localhost,
 * 127.0.0.1 and [::1]) with its port, or a --listen-host name. Any other name is what a DNS-rebinding
 * page sends (its own name, resolved to this address). A listener beyond loopback without
 * --listen-host answers any Host: machines have many names, and its bearer token is what a page
 * cannot have.
 */
export function hostAllowed(header: string | undefined, address: ListenAddress, port: number, names: readonly string[]): boolean {
  if (!address.loopback && names.length === 0) return true;
  if (!header) return false;
  const host = header.trim().toLowerCase();
  const own = [address.host.includes(':') ? `[${address.host}]` : address.host];
  if (address.loopback) own.push('127.0.0.1', 'localhost', '[::1]');
  // A browser leaves out port 80.
  if (own.some((h) => host === `${h}:${port}` || (port === 80 && host === h))) return true;
  const bare = host.replace(/:\d+$/, '');
  return names.some((n) => n === host || n === bare);
}
