// The built CLI behind a hostile proxy of the local cloud: a sign-in page on a read fails the plan and
// the apply sends nothing destructive; a service that echoes a secret in its error shows it masked.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostileServer, json } from '../providers/hostile-server.js';
import { ARM_PATH, groupManifest, moor, startCloud, workdir, writeFile, type Cloud } from './harness.js';

const SECRET = 'e2e-hostile-secret-value';
const SIGN_IN = '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form>Sign in to continue</form></body></html>';

type Mode = 'pass' | 'sign-in' | 'echo';

interface Proxy {
  readonly url: string;
  mode: Mode;
  /** Methods and paths the proxy received while hostile. */
  readonly hostileRequests: string[];
  close(): Promise<void>;
}

/** Forwards to the cloud (rewriting its address in headers and bodies) unless a hostile mode is on. */
async function startProxy(cloud: Cloud): Promise<Proxy> {
  let self = '';
  const proxy: Proxy = { url: '', mode: 'pass', hostileRequests: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a test proxy: a failure shows as the test's own request failing
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (proxy.mode !== 'pass') proxy.hostileRequests.push(`${req.method} ${req.url}`);
      if (proxy.mode === 'sign-in' && req.method === 'GET' && req.url?.includes('/containerGroups/')) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(SIGN_IN);
      }
      if (proxy.mode === 'echo' && req.method === 'PUT') {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { code: 'InvalidRequestContent', message: `could not read the request: ${body}` } }));
      }
      const answer = await fetch(`${cloud.url}${String(req.url)}`, {
        method: req.method,
        body: body.length > 0 ? body : undefined,
        redirect: 'manual',
        headers: { authorization: req.headers.authorization ?? '', 'content-type': req.headers['content-type'] ?? 'application/json' },
      });
      const headers: Record<string, string> = {};
      answer.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') headers[k] = v.split(cloud.url).join(self);
      });
      const text = (await answer.text()).split(cloud.url).join(self);
      res.writeHead(answer.status, headers);
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(proxy, {
    url: self,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

describe('a hostile service', () => {
  let cloud: Cloud;
  let proxy: Proxy;
  let dir: string;
  const run = (...args: string[]) => moor(dir, { url: proxy.url } as Cloud, args);

  beforeAll(async () => {
    cloud = await startCloud();
    proxy = await startProxy(cloud);
    dir = workdir({ 'm/secret.txt': SECRET + '\n', 'm/web.yaml': groupManifest('web') });
    const apply = await run('apply', 'm', '--auto-approve');
    expect(apply.stderr).not.toContain(SECRET);
    expect(apply.code).toBe(0);
  });
  afterAll(async () => {
    await (proxy as Proxy | undefined)?.close(); // unset if beforeAll failed
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('an HTML sign-in page on a read fails the plan (exit 1) naming service, URL and status', async () => {
    proxy.mode = 'sign-in';
    const plan = await run('plan', 'm', '--detailed-exitcode');
    expect(plan.code).toBe(1);
    expect(plan.stdout).not.toMatch(/-\/\+/);
    const url = `${proxy.url}${ARM_PATH('web').split('?')[0]}`;
    const output = plan.stdout + plan.stderr;
    expect(output).toContain(`GET containerGroups/web: 200 InvalidAnswer: the answer is text/html, not JSON (from service 'arm' at ${url})`);
    expect(output).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  test('apply against it sends nothing destructive and reports no change', async () => {
    proxy.mode = 'sign-in';
    proxy.hostileRequests.length = 0;
    const apply = await run('apply', 'm', '--auto-approve');
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).not.toMatch(/replaced|created/);
    expect(proxy.hostileRequests.filter((r) => !r.startsWith('GET '))).toEqual([]);
    proxy.mode = 'pass';
    expect((await run('plan', 'm', '--detailed-exitcode')).code).toBe(0);
  });

  test('a service error that echoes the request shows the secret masked', async () => {
    proxy.mode = 'echo';
    writeFile(dir, 'm/web.yaml', groupManifest('web', { image: 'nginx:1.28' }));
    const apply = await run('apply', 'm', '--auto-approve');
    proxy.mode = 'pass';
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('PUT containerGroups/web: 400 InvalidRequestContent: could not read the request:');
    expect(apply.stderr).toContain('"secureValue":"***"');
    expect(apply.stdout + apply.stderr).not.toContain(SECRET);
  });
});

describe('waits and listings through the CLI', () => {
  const usage = ['get', 'usage', '--subscription', '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11', '--location', 'westeurope'];
  const entry = { name: { value: 'ContainerGroups' }, currentValue: 1, limit: 100 };

  test('a wait of 3 s or more is one line on stderr', async () => {
    let calls = 0;
    const server = await hostileServer((_req, res) =>
      ++calls === 1 ? json(res, 429, { error: { code: 'TooManyRequests', message: 'slow down' } }, { 'retry-after': '3' }) : json(res, 200, { value: [entry] }),
    );
    const r = await moor(workdir(), { url: server.url } as Cloud, usage);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('moor: throttled by arm, waiting 3 s before sending GET usages/westeurope again (attempt 2)');
  });

  test('a Retry-After past the ceiling fails at once, exit 1', async () => {
    const server = await hostileServer((_req, res) =>
      json(res, 429, { error: { code: 'TooManyRequests', message: 'slow down' } }, { 'retry-after': '999999' }),
    );
    const r = await moor(workdir(), { url: server.url } as Cloud, usage);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('asked to wait 999999 s before trying again, longer than the 120 s moor waits');
    expect(server.requests).toHaveLength(1);
  });

  test('a listing past MOOR_MAX_PAGES is an error, not a partial list', async () => {
    const server = await hostileServer((req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      json(res, 200, { value: [entry], nextLink: `http://${req.headers.host}${req.url?.split('?')[0]}?api-version=2026-07-01&page=${page + 1}` });
    });
    const r = await moor(workdir(), { url: server.url } as Cloud, usage, { MOOR_MAX_PAGES: '5' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('the listing has more than 5 pages; stopped rather than report a partial list (MOOR_MAX_PAGES)');
    expect(server.requests).toHaveLength(5);
  });
});
