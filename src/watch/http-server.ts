// moor watch: the HTTP endpoints — /healthz, /readyz, /metrics (Prometheus text), /api/status (JSON), and the dashboard at `/`.
// Every input is bounded (connections, time to send the headers, no request bodies) and every piece of
// data served passes the session's masker in one place, the ServedResponse below.
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { UserError } from '../core/diagnostics.js';
import type { Masker } from '../core/masker.js';
import { hostAllowed, type ListenAddress } from './listen-address.js';
import type { Dashboard } from './dashboard/dashboard.js';
import type { JsonAnswer } from './cached-json.js';

/**
 * Connections served at once; more are closed as they arrive. A dashboard page holds one for its live
 * stream and a few for its documents, a scraper one: 64 is plenty, and it keeps a flood of connections
 * from taking the file descriptors the cycles need (state files, locks, services' sockets).
 */
export const MAX_CONNECTIONS = 64;
/** A client has this long to send a request's headers (a half-open connection is closed after it). */
export const HEADERS_TIMEOUT_MS = 5_000;

export interface WatchEndpoints {
  /** The process is up and not shutting down. */
  healthy(): boolean;
  /** Every stack has been reconciled once (or is another replica's), and cycles can run: undefined; else why not. */
  notReady(): string | undefined;
  metrics(): Promise<{ contentType: string; text: string }>;
  /** /api/status, as JSON text and gzipped. */
  status(): JsonAnswer;
  /** The dashboard: the page at `/`, its data under /api/dashboard/ and its live stream at /api/events. */
  readonly dashboard?: Dashboard;
}

export interface ListenOptions {
  readonly address: ListenAddress;
  /** Every request must carry `Authorization: Bearer TOKEN` (--listen-token). */
  readonly token?: string;
  /** Names besides the listener's own address that requests may give as Host (--listen-host). */
  readonly hosts?: readonly string[];
  /** The session's masker: what is served shows no secret it knows. */
  readonly masker: Masker;
}

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function serveEndpoints(listen: ListenOptions, endpoints: WatchEndpoints): Promise<RunningServer> {
  let port = listen.address.port;
  const server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: 2 * HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
    (req, res) => {
      const out = new ServedResponse(req, res, listen.masker);
      handle(req, out, { ...listen, port }, endpoints).catch(() => out.text(500, 'internal error\n'));
    },
  );
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(listenError(listen.address, err)));
    server.listen(listen.address.port, listen.address.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  port = bound.port;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return { url: `http://${host}:${bound.port}`, close: () => closeServer(server) };
}

/** A listen that fails (the port in use, not an address of this machine, a privileged port) is one line naming the address. */
function listenError(address: ListenAddress, err: Error): Error {
  const where = `--listen ${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
  switch ((err as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new UserError(`${where}: the address is already in use (another process listens there); choose another port, or 0 to pick a free one`);
    case 'EADDRNOTAVAIL':
      return new UserError(`${where}: not an address of this machine`);
    case 'EACCES':
      return new UserError(`${where}: not permitted (ports below 1024 need privileges); choose another port`);
    default:
      return new UserError(`${where}: cannot listen: ${err.message}`);
  }
}

async function handle(req: IncomingMessage, out: ServedResponse, listen: ListenOptions & { port: number }, endpoints: WatchEndpoints): Promise<void> {
  // DNS rebinding: a page on another name that resolves to this address must not read it.
  if (!hostAllowed(req.headers.host, listen.address, listen.port, listen.hosts ?? [])) {
    out.text(
      421,
      `misdirected request: this moor watch answers to its own address (or a name given with --listen-host), not Host ${JSON.stringify(req.headers.host ?? '')}\n`,
      true,
    );
    return;
  }
  const url = new URL(req.url ?? '/', 'http://watch');
  // The page and its assets are the package's code and carry no data, so a browser may open them without
  // a token (it cannot send one when it opens a page); everything they show comes from the API below.
  const asset = req.method === 'GET' || req.method === 'HEAD' ? await endpoints.dashboard?.asset(url.pathname) : undefined;
  if (asset) {
    out.asset(asset.type, asset.headers, asset.body);
    return;
  }
  if (listen.token && !authorized(req.headers.authorization, listen.token)) {
    out.text(401, 'unauthorized: send Authorization: Bearer TOKEN (--listen-token)\n', true, { 'www-authenticate': 'Bearer' });
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    out.text(405, 'method not allowed\n', true);
    return;
  }
  // Nothing here takes a body: one is never read, and the connection closes after the answer.
  if (hasBody(req)) {
    out.text(413, 'no request body is accepted\n', true);
    return;
  }
  const path = url.pathname;
  switch (path) {
    case '/healthz':
      if (endpoints.healthy()) out.text(200, 'ok\n');
      else out.text(503, 'shutting down\n');
      return;
    case '/readyz': {
      const why = endpoints.notReady();
      if (why === undefined) out.text(200, 'ready\n');
      else out.text(503, why + '\n');
      return;
    }
    case '/metrics': {
      const m = await endpoints.metrics();
      out.body(200, m.contentType, m.text);
      return;
    }
    case '/api/status':
      out.json(endpoints.status());
      return;
    case '/api/events':
      if (endpoints.dashboard) {
        endpoints.dashboard.stream(out);
        return;
      }
      break;
    default:
      if (endpoints.dashboard && path.startsWith('/api/dashboard/')) {
        const answer = await endpoints.dashboard.document(path.slice('/api/dashboard/'.length), url.searchParams);
        if (answer.status === 200) out.body(200, 'application/json', JSON.stringify(answer.body));
        else out.text(answer.status, answer.message + '\n');
        return;
      }
  }
  out.text(404, 'not found: /, /healthz, /readyz, /metrics, /api/status\n');
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

function authorized(header: string | undefined, token: string): boolean {
  const m = /^Bearer (.+)$/i.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Masked JSON answers, remembered per answer (the same between changes) and the masker's generation. */
const maskedAnswers = new WeakMap<JsonAnswer, { readonly generation: number; readonly answer: JsonAnswer }>();

/**
 * The output edge of the listener: every document, stream message and text it serves is masked here,
 * as stdout and stderr are (a service's error may echo a secret it was sent). Only the page's own
 * assets (the package's code, no data) go out as they are.
 */
export class ServedResponse {
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly masker: Masker,
  ) {}

  /** A short plain-text answer; `close`: the connection is not kept for another request. */
  text(status: number, body: string, close = false, headers: OutgoingHttpHeaders = {}): void {
    this.body(status, 'text/plain', body, { ...headers, ...(close ? { connection: 'close' } : {}) });
  }

  body(status: number, type: string, body: string, headers: OutgoingHttpHeaders = {}): void {
    if (this.res.headersSent) return void this.res.end();
    this.res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
    this.res.end(this.req.method === 'HEAD' ? undefined : this.masker.mask(body));
  }

  /** A cached JSON document (gzipped when the client takes it), masked once per document and per newly registered secret. */
  json(unmasked: JsonAnswer): void {
    const answer = this.masked(unmasked);
    const headers = { 'content-type': 'application/json', 'cache-control': 'no-store', vary: 'accept-encoding' };
    const gzip = /\bgzip\b/.test(this.req.headers['accept-encoding'] ?? '');
    this.res.writeHead(200, gzip ? { ...headers, 'content-encoding': 'gzip' } : headers);
    this.res.end(this.req.method === 'HEAD' ? undefined : gzip ? answer.gzipped() : answer.text);
  }

  asset(type: string, headers: Readonly<Record<string, string>>, body: string | Buffer): void {
    this.res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache', ...headers });
    this.res.end(this.req.method === 'HEAD' ? undefined : body);
  }

  /** An event stream's head; its messages go through write(). */
  openStream(headers: OutgoingHttpHeaders): void {
    this.res.writeHead(200, headers);
  }

  write(chunk: string): boolean {
    return this.res.write(this.masker.mask(chunk));
  }

  onClose(listener: () => void): void {
    this.res.on('close', listener);
  }

  private masked(answer: JsonAnswer): JsonAnswer {
    if (!this.masker.active) return answer;
    const known = maskedAnswers.get(answer);
    if (known?.generation === this.masker.generation) return known.answer;
    const text = this.masker.mask(answer.text);
    let zipped: Buffer | undefined;
    // Level 1, as cached-json.ts: a megabyte of repetitive JSON shrinks about tenfold in a few milliseconds.
    const masked: JsonAnswer = text === answer.text ? answer : { text, gzipped: () => (zipped ??= gzipSync(text, { level: 1 })) };
    maskedAnswers.set(answer, { generation: this.masker.generation, answer: masked });
    return masked;
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
