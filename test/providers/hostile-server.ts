// A scripted hostile server: a real node:http server on 127.0.0.1, port 0, recording every request it gets.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly body: string;
  readonly authorization?: string;
}

export interface HostileServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

export type Script = (req: IncomingMessage & { body: string }, res: ServerResponse) => void;

const open: Server[] = [];
afterEach(async () => {
  await Promise.all(
    open.splice(0).map(
      (s) =>
        new Promise<void>((r) => {
          s.closeAllConnections();
          s.close(() => r());
        }),
    ),
  );
});

/** Starts a server answering each request by `script` (after its body is read); closed after each test. */
export async function hostileServer(script: Script): Promise<HostileServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', body, authorization: req.headers.authorization });
      script(Object.assign(req, { body }), res);
    });
  });
  open.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Answers JSON with its content type. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
