// moor watch: the HTTP endpoints — /healthz, /readyz, /metrics (Prometheus text), /api/status (JSON), and the dashboard at `/`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ListenAddress } from './listen-address.js';
import type { Dashboard } from './dashboard/dashboard.js';
import type { JsonAnswer } from './cached-json.js';

export interface WatchEndpoints {
  /** The process is up and not shutting down. */
  healthy(): boolean;
  /** Every stack has been reconciled once (or is another replica's). */
  ready(): boolean;
  metrics(): Promise<{ contentType: string; text: string }>;
  /** /api/status, as JSON text and gzipped. */
  status(): JsonAnswer;
  /** The dashboard: the page at `/`, its data under /api/dashboard/ and its live stream at /api/events. */
  readonly dashboard?: Dashboard;
}

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function serveEndpoints(address: ListenAddress, token: string | undefined, endpoints: WatchEndpoints): Promise<RunningServer> {
  const server = createServer((req, res) => {
    handle(req, res, token, endpoints).catch(() => send(res, 500, 'text/plain', 'internal error\n'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return { url: `http://${host}:${bound.port}`, close: () => closeServer(server) };
}

async function handle(req: IncomingMessage, res: ServerResponse, token: string | undefined, endpoints: WatchEndpoints): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://watch');
  // The page and its assets are the package's code and carry no data, so a browser may open them without
  // a token (it cannot send one when it opens a page); everything they show comes from the API below.
  const asset = (req.method === 'GET' || req.method === 'HEAD') ? await endpoints.dashboard?.asset(url.pathname) : undefined;
  if (asset) {
    res.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-cache', ...asset.headers });
    res.end(req.method === 'HEAD' ? undefined : asset.body);
    return;
  }
  if (token && !authorized(req.headers.authorization, token)) {
    res.setHeader('www-authenticate', 'Bearer');
    return send(res, 401, 'text/plain', 'unauthorized: send Authorization: Bearer TOKEN (--listen-token)\n');
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed\n');
  const path = url.pathname;
  switch (path) {
    case '/healthz':
      return endpoints.healthy() ? send(res, 200, 'text/plain', 'ok\n') : send(res, 503, 'text/plain', 'shutting down\n');
    case '/readyz':
      return endpoints.ready() ? send(res, 200, 'text/plain', 'ready\n') : send(res, 503, 'text/plain', 'not every stack has been reconciled yet\n');
    case '/metrics': {
      const m = await endpoints.metrics();
      return send(res, 200, m.contentType, m.text);
    }
    case '/api/status':
      return sendJson(req, res, endpoints.status());
    case '/api/events':
      if (endpoints.dashboard) return endpoints.dashboard.stream(res);
      break;
    default:
      if (endpoints.dashboard && path.startsWith('/api/dashboard/')) {
        const answer = await endpoints.dashboard.document(path.slice('/api/dashboard/'.length), url.searchParams);
        return answer.status === 200 ? send(res, 200, 'application/json', JSON.stringify(answer.body)) : send(res, answer.status, 'text/plain', answer.message + '\n');
      }
  }
  return send(res, 404, 'text/plain', 'not found: /, /healthz, /readyz, /metrics, /api/status\n');
}

function authorized(header: string | undefined, token: string): boolean {
  const m = /^Bearer (.+)$/i.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function sendJson(req: IncomingMessage, res: ServerResponse, answer: JsonAnswer): void {
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-store', vary: 'accept-encoding' };
  if (!/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
    res.writeHead(200, headers);
    res.end(answer.text);
    return;
  }
  res.writeHead(200, { ...headers, 'content-encoding': 'gzip' });
  res.end(answer.gzipped());
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
