// The transport's fetch over node:http and node:https: the same answers, errors and abort
// behaviour as Node's own fetch for what the transport sends, at a third of its CPU per request
// (measured: 0.4-0.6 ms against 1.2-3.0 ms on a loaded machine). An apply of 200 container groups
// sends 400 requests, ten at a time; with Node's fetch its request phase was bound by moor's CPU.
// Its answers are not fetch's Response: that class (and Headers) is Node's fetch, undici, which
// costs about 0.05 CPU-s to load, a sixth of a start of moor, for the parts of it read here.
import http from 'node:http';
import https from 'node:https';

/** The headers of an answer as fetch's Headers reads them: a name in any case; repeated values joined by ', '. */
export interface AnswerHeaders {
  get(name: string): string | null;
  /** Each header, names in lower case and in order. */
  forEach(callback: (value: string, name: string) => void): void;
}

/** What moor reads of an answer: fetch's Response has it, and so has httpFetch's. */
export interface FetchAnswer {
  readonly status: number;
  readonly ok: boolean;
  readonly statusText: string;
  readonly headers: AnswerHeaders;
  readonly body: ReadableStream<Uint8Array> | null;
}

/** fetch's options with the body the transport sends: a string or none. */
export type FetchInit = Omit<RequestInit, 'body'> & { body?: string };
/** What the transport calls: fetch's shape, for the requests it makes (a URL, a string body or none, manual redirects). */
export type FetchLike = (input: URL | string, init?: FetchInit) => Promise<FetchAnswer>;

/** A free connection is closed after this long, before a server's usual 5 s keep-alive ends it under a request. */
const IDLE_MS = 4_000;
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_MS }),
};
/** Statuses whose answer has no body (fetch's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** Safe to send again on a fresh connection when a kept-alive one turned out closed. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Node's own fetch, as it was when moor loaded: a fetch replaced since (a test's mock, a benchmark's probe) is honoured. */
const NATIVE_FETCH = globalThis.fetch;

/** The fetch a transport uses when none is given: this one, unless the process's fetch was replaced. */
export function defaultFetch(): FetchLike {
  return globalThis.fetch === NATIVE_FETCH ? httpFetch : globalThis.fetch;
}

/**
 * fetch over node:http(s) with kept-alive connections. Failures reject as fetch's do: a TypeError
 * 'fetch failed' whose cause carries the code (ECONNREFUSED…); an abort rejects with the signal's
 * reason, before the answer or while its body is read; a body cut short errors with 'terminated'.
 * Redirects are never followed (the transport follows them itself).
 */
export const httpFetch: FetchLike = (input, init = {}) => {
  const url = input instanceof URL ? input : new URL(input);
  const method = (init.method ?? 'GET').toUpperCase();
  const body = init.body === undefined ? undefined : Buffer.from(init.body);
  const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
  if (body) headers['content-length'] = String(body.length);
  return send(url, method, headers, body, init.signal ?? undefined, IDEMPOTENT.has(method));
};

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal | undefined,
  retryOnStale: boolean,
): Promise<FetchAnswer> {
  return new Promise<FetchAnswer>((resolve, reject) => {
    if (signal?.aborted) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rejects with the abort reason, as fetch does
      reject(signal.reason);
      return;
    }
    const agent = url.protocol === 'https:' ? agents['https:'] : url.protocol === 'http:' ? agents['http:'] : undefined;
    if (!agent) {
      reject(new TypeError('fetch failed', { cause: new Error(`unsupported protocol ${url.protocol}`) }));
      return;
    }
    const request = url.protocol === 'https:' ? https.request : http.request;
    let answered = false;
    const onAbort = () => {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rejects with the abort reason, as fetch does
      if (!answered) reject(signal?.reason);
      req.destroy();
    };
    const req = request(url, { method, headers, agent }, (res) => {
      answered = true;
      signal?.removeEventListener('abort', onAbort);
      try {
        resolve(responseOf(res, method, signal));
      } catch (err) {
        res.destroy();
        reject(new TypeError('fetch failed', { cause: err }));
      }
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (answered || signal?.aborted) return;
      signal?.removeEventListener('abort', onAbort);
      // A kept-alive connection the server had just closed: the request never reached it.
      if (retryOnStale && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        send(url, method, headers, body, signal, false).then(resolve, reject);
        return;
      }
      reject(new TypeError('fetch failed', { cause: err }));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    req.end(body);
  });
}

/** An answer's status line and headers, checked as fetch's Response checks them (a bad one throws). */
function responseOf(res: http.IncomingMessage, method: string, signal: AbortSignal | undefined): FetchAnswer {
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 599) throw new Error(`invalid status ${status}`);
  const statusText = res.statusMessage ?? '';
  if (!REASON_PHRASE.test(statusText)) throw new TypeError(`invalid status text ${JSON.stringify(statusText)}`);
  const headers = new NodeAnswerHeaders(res.rawHeaders);
  const body = NULL_BODY.has(status) || method === 'HEAD' ? null : bodyOf(res, signal);
  if (!body) res.resume();
  return { status, ok: status >= 200 && status <= 299, statusText, headers, body };
}

/** HTTP's token (a header name) and reason phrase, as fetch's Headers and Response accept them. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const REASON_PHRASE = /^[\t\x20-\x7E\x80-\xFF]*$/;
/** What a header value may not hold, and the whitespace fetch strips from its ends. */
const BAD_VALUE = /[\0\r\n]/;
const EDGE_SPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/** Headers as fetch's Headers holds them, from Node's raw name/value list. */
class NodeAnswerHeaders implements AnswerHeaders {
  private readonly byName = new Map<string, string>();

  constructor(raw: readonly string[]) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i];
      const value = raw[i + 1].replace(EDGE_SPACE, '');
      if (!TOKEN.test(name)) throw new TypeError(`invalid header name ${JSON.stringify(name)}`);
      if (BAD_VALUE.test(value)) throw new TypeError(`invalid value of header ${name}`);
      const key = name.toLowerCase();
      const prior = this.byName.get(key);
      this.byName.set(key, prior === undefined ? value : `${prior}, ${value}`);
    }
  }

  get(name: string): string | null {
    return this.byName.get(name.toLowerCase()) ?? null;
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const name of [...this.byName.keys()].sort()) callback(this.byName.get(name) ?? '', name);
  }
}

/** The body as a stream that holds at most a chunk ahead of its reader, ends with the answer, errors on an abort or a cut. */
function bodyOf(res: http.IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let settled = false;
  let onAbort: (() => void) | undefined;
  const settle = () => {
    settled = true;
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (err: unknown) => {
        if (settled) return;
        settle();
        controller.error(err);
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) res.pause();
      });
      res.on('end', () => {
        if (settled) return;
        settle();
        controller.close();
      });
      res.on('error', (err) => fail(new TypeError('terminated', { cause: err })));
      res.on('close', () => {
        if (!res.complete) fail(new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }));
      });
      if (signal) {
        onAbort = () => fail(signal.reason);
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }
    },
    pull() {
      res.resume();
    },
    cancel() {
      settle();
      res.destroy();
    },
  });
}
