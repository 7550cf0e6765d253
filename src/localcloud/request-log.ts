// The local cloud's request log (--request-log FILE): one JSON line per request as it is answered, as a
// service's own activity log keeps it — its order of arrival and when, the method, the path, the status, the request id and the
// client's User-Agent (moor watch's replicas name themselves and the stack's lease there). Never a header
// with a credential, a query string or a body.
import { createWriteStream, type WriteStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RequestLogLine {
  /** The order requests arrived in (lines are written as answers go out, which may be in another order). */
  readonly seq: number;
  /** When the request arrived. */
  readonly time: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly requestId: string;
  readonly userAgent: string | null;
}

const MAX_AGENT = 300;

export class RequestLog {
  private readonly out: WriteStream;
  private seq = 0;

  constructor(file: string) {
    this.out = createWriteStream(file, { flags: 'a' });
    this.out.on('error', (err) => process.stderr.write(`local-cloud: the request log ${file} failed: ${err.message}\n`));
  }

  /** Writes the line once the answer went out (or the connection closed without one: status 0). */
  record(req: IncomingMessage, res: ServerResponse, method: string, path: string, requestId: string): void {
    const agent = req.headers['user-agent'];
    const seq = ++this.seq;
    const time = new Date().toISOString();
    const write = () => {
      const line: RequestLogLine = {
        seq,
        time,
        method,
        path,
        status: res.headersSent ? res.statusCode : 0,
        requestId,
        userAgent: typeof agent === 'string' ? agent.slice(0, MAX_AGENT) : null,
      };
      this.out.write(JSON.stringify(line) + '\n');
    };
    res.once('close', write);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.out.end(() => resolve()));
  }
}
