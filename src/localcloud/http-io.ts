// Reading request bodies and writing LocalResponses on node:http.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalResponse } from './types.js';

/** Larger bodies are refused with 413: nothing in the seeds comes near it. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export type BodyResult =
  | { readonly ok: true; readonly raw: Buffer }
  | { readonly ok: false; readonly tooLarge: true };

export function readBody(req: IncomingMessage): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? { ok: false, tooLarge: true } : { ok: true, raw: Buffer.concat(chunks) }));
    req.on('error', reject);
    // A client that goes away mid-body would otherwise leave this promise pending forever.
    req.on('close', () => { if (!req.complete) reject(new Error('the client closed the connection')); });
  });
}

export type ParsedBody = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** JSON when the body is non-empty and declared JSON (or undeclared); other media types stay raw. */
export function parseJsonBody(raw: Buffer, contentType: string | undefined): ParsedBody {
  if (raw.length === 0) return { ok: true, value: undefined };
  if (contentType && !/json/i.test(contentType)) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) };
  } catch (err) {
    return { ok: false, message: `The request content is not valid JSON: ${(err as Error).message}` };
  }
}

export function sendResponse(res: ServerResponse, response: LocalResponse, extraHeaders: Record<string, string>): void {
  const headers: Record<string, string> = { ...extraHeaders, ...(response.headers ?? {}) };
  let payload: Buffer | undefined;
  if (Buffer.isBuffer(response.body)) {
    payload = response.body;
    if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/octet-stream';
  } else if (response.body !== undefined) {
    payload = Buffer.from(JSON.stringify(response.body), 'utf8');
    if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json; charset=utf-8';
  }
  headers['content-length'] = String(payload?.length ?? 0);
  res.writeHead(response.status, headers);
  res.end(payload);
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}
