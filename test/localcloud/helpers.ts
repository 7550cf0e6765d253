// Test helpers: a local cloud on a free port and authenticated fetch against it.
import { afterEach } from 'vitest';
import { startLocalCloud, type LocalCloud, type LocalCloudOptions } from '../../src/localcloud/server.js';
import type { LocalService } from '../../src/localcloud/types.js';
import type { ParsedJson } from '../support/parsed-json.js';

export const TOKEN = 'local-dev-token';
export const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
export const CI_API = 'api-version=2026-07-01';

const open: LocalCloud[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

/** A local cloud closed after the test. */
export async function cloud(options: LocalCloudOptions = {}, services?: readonly LocalService[]): Promise<LocalCloud> {
  const c = await startLocalCloud({ port: 0, provisioningMs: 0, ...options }, services);
  open.push(c);
  return c;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: ParsedJson;
}

/** fetch with the bearer token; the JSON body parsed (undefined when empty). */
export async function call(
  url: string,
  init: { method?: string; body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.token !== null) headers.authorization = `Bearer ${init.token ?? TOKEN}`;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export function groupUrl(base: string, name: string, rg = 'rg-web', sub = SUB): string {
  return `${base}/subscriptions/${sub}/resourceGroups/${rg}/providers/Vendor.ContainerInstance/containerGroups/${name}?${CI_API}`;
}

/** A minimal valid container group body. */
export function groupBody(overrides: Record<string, unknown> = {}, properties: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    location: 'westeurope',
    ...overrides,
    properties: {
      containers: [{ name: 'web', properties: { image: 'nginx:1.27', resources: { requests: { cpu: 1, memoryInGB: 1.5 } } } }],
      ...properties,
    },
  };
}

/** A clock the test moves by hand, so asynchronous provisioning needs no waiting. */
export function fakeClock(start = Date.parse('2026-11-01T10:00:00Z')): { now: () => Date; advance(ms: number): void } {
  let t = start;
  return {
    now: () => new Date(t),
    advance: (ms) => {
      t += ms;
    },
  };
}
