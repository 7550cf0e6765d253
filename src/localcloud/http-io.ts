// Reading request bodies and writing LocalResponses on node:http.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalResponse } from './types.js';

/** Larger bodies are refused with 413: nothing in the seeds comes near it. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export type BodyResult = { readonly ok: true; readonly raw: Buffer } | { readonly ok: false; readonly tooLarge: true };

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
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client closed the connection'));
    });
  });
}

export type ParsedBody = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** JSON when the body is non-empty and declared JSON (or undeclared); other media types stay raw. */
export function parseJsonBody(raw: Buffer, contentType: string | undefined): ParsedBody {
  if (raw.length === 0) return { ok: true, value: undefined };
  if (contentType && !/json/i.test(contentType)) return { ok: true, value: undefined };
  const text = raw.toString('utf8');
  // The services' JSON readers stop at a depth (64 in .NET's); a handler walking a deeper body would overflow the stack.
  if (nestingDepth(text) > MAX_JSON_DEPTH) return { ok: false, message: `The request content is nested deeper than ${MAX_JSON_DEPTH} levels.` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, message: `The request content is not valid JSON: ${(err as Error).message}` };
  }
}

/** Deepest nesting of objects and arrays a request body may have. */
export const MAX_JSON_DEPTH = 64;

/** How deep JSON text nests objects and arrays (brackets inside strings do not count); stops counting past the limit. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      deepest = Math.max(deepest, ++depth);
      if (deepest > MAX_JSON_DEPTH) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
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
