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
  const host = m[1] ?? (m[2] || '127.0.0.1');
  if (host !== 'localhost' && isIP(host) === 0) throw new UserError(`--listen ${text}: give an IP address to listen on (127.0.0.1, ::1, 0.0.0.0), not a host name`);
  return { host, port, loopback: isLoopback(host) };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** Another address than loopback serves the network: refused without a token. */
export function requireToken(address: ListenAddress, token: string | undefined): void {
  if (!address.loopback && !token) {
    throw new UserError(`--listen ${address.host}:${address.port} serves beyond this machine: give --listen-token TOKEN (clients send Authorization: Bearer TOKEN), or listen on 127.0.0.1`);
  }
}
