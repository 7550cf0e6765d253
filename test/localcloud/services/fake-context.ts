// Test doubles for calling local-cloud handlers directly: a fake ServiceContext and requests.
import type { LocalRequest, ServiceContext } from '../../../src/localcloud/types.js';

export interface FakeContext extends ServiceContext {
  /** How many times save() was called. */
  saves: number;
  /** Moves the fake clock forward. */
  advance(ms: number): void;
}

export function fakeContext(data: Record<string, unknown> = {}, start = Date.parse('2026-01-01T00:00:00Z')): FakeContext {
  let now = start;
  const ctx = {
    data,
    saves: 0,
    baseUrl: 'http://127.0.0.1:4010',
    requestId: '00000000-0000-4000-8000-00000000abcd',
    save() {
      ctx.saves += 1;
    },
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
  return ctx;
}

export interface RequestInit {
  params?: Record<string, string>;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  rawBody?: Buffer;
}

export function request(method: string, path: string, init: RequestInit = {}): LocalRequest {
  const url = new URL(path, 'http://127.0.0.1:4010');
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  return {
    method,
    url,
    headers: init.headers ?? {},
    params: init.params ?? {},
    body: init.body,
    rawBody: init.rawBody ?? Buffer.alloc(0),
  };
}
