// moor watch's listener against a hostile world: a service that echoes the secrets it is sent shows
// none of them in anything the watch serves; a page on another name (DNS rebinding) reads nothing;
// a port in use is one line.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { groupManifest, moor, startCloud, workdir, type Cloud } from './harness.js';
import { startWatch, waitFor, type WatchRun } from './watch-harness.js';

const SECRET = 'e2e-watch-echoed-Secret-4711';

/** Forwards to the cloud, but answers every PUT with a 400 whose message echoes the request body (real services do). */
async function startEchoingProxy(cloud: Cloud): Promise<Cloud & { echoed: number }> {
  let self = '';
  const proxy = { url: '', echoed: 0, stop: async (): Promise<void> => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a test proxy: a failure shows as the test's own request failing
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'PUT') {
        proxy.echoed++;
        res.writeHead(400, { 'content-type': 'application/json', 'x-ms-request-id': `echo-${SECRET}` });
        return res.end(JSON.stringify({ error: { code: `Invalid-${SECRET}`, message: `could not read the request: ${body}`, target: SECRET } }));
      }
      const answer = await fetch(`${cloud.url}${String(req.url)}`, { method: req.method, headers: { authorization: req.headers.authorization ?? '' } });
      const text = (await answer.text()).split(cloud.url).join(self);
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(proxy, {
    url: self,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

/** A GET with the Host header a browser on another name would send. */
function getWithHost(url: string, path: string, host: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = host === undefined ? {} : { host };
    const req = request(url + path, { headers, setHost: host === undefined }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
        if (path === '/api/events') res.destroy();
      });
      res.on('close', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Everything /api/events sends until `stop()`. */
function readEvents(url: string): { text(): string; stop(): void } {
  const controller = new AbortController();
  let text = '';
  void fetch(url + '/api/events', { signal: controller.signal })
    .then(async (res) => {
      const decoder = new TextDecoder();
      for await (const chunk of res.body!) text += decoder.decode(chunk, { stream: true });
    })
    .catch(() => undefined);
  return { text: () => text, stop: () => controller.abort() };
}

const MANIFEST = groupManifest('web').replace('${file:secret.txt}', '${env:DB_PASSWORD}');

describe('moor watch serves no secret a service echoes', () => {
  let cloud: Cloud;
  let proxy: Awaited<ReturnType<typeof startEchoingProxy>>;
  let watch: WatchRun;

  beforeAll(async () => {
    cloud = await startCloud();
    proxy = await startEchoingProxy(cloud);
  });
  afterAll(async () => {
    await (proxy as Awaited<ReturnType<typeof startEchoingProxy>> | undefined)?.stop(); // unset if beforeAll failed
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('not in /api/status, the dashboard documents, the event stream, /metrics, the log', async () => {
    const dir = workdir({ 'm/web.yaml': MANIFEST });
    watch = await startWatch(dir, proxy, ['m', '--interval', '1s', '--self-heal'], { DB_PASSWORD: SECRET });
    const events = readEvents(watch.url);
    try {
      // Two failed cycles: the echo reached every place a cycle's error goes, the stream heard them.
      await waitFor(
        async () => (await watch.status()).stacks[0].runs >= 2 && events.text().includes('"result":"failed"'),
        60_000,
        () => `no failed cycles: ${watch.stderr()}`,
      );
      const documents = {
        status: (await watch.get('/api/status')).text,
        resource: (await watch.get('/api/dashboard/resource?address=ContainerGroup/web')).text,
        graph: (await watch.get('/api/dashboard/graph')).text,
        history: (await watch.get('/api/dashboard/history')).text,
        rates: (await watch.get('/api/dashboard/rates')).text,
        metrics: (await watch.get('/metrics')).text,
        events: events.text(),
        log: watch.stderr(),
      };
      const status = JSON.parse(documents.status) as {
        stacks: { result: string; error: string; findings: string[]; resources: { detail?: string }[]; lastRun: { error?: string }[] }[];
      };
      const stack = status.stacks[0];
      expect(stack.result).toBe('failed');
      // The echoed body arrived, masked, in every field a service's text reaches.
      for (const text of [stack.error, stack.findings.join('\n'), stack.resources[0].detail, stack.lastRun[0].error]) {
        expect(text).toContain('could not read the request');
        expect(text).toContain('"secureValue":"***"');
      }
      expect(JSON.parse(documents.resource).resource.detail).toContain('"secureValue":"***"');
      expect(proxy.echoed).toBeGreaterThanOrEqual(2);
      for (const [name, text] of Object.entries(documents)) expect({ name, leaked: text.includes(SECRET) }).toEqual({ name, leaked: false });
    } finally {
      events.stop();
      await watch.terminate();
    }
  });
});

describe('moor watch answers only to its own name', () => {
  let cloud: Cloud;
  let watch: WatchRun;

  beforeAll(async () => {
    cloud = await startCloud();
    const dir = workdir({ 'm/secret.txt': 'watch-host-secret\n', 'm/web.yaml': groupManifest('web') });
    expect((await moor(dir, cloud, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    watch = await startWatch(dir, cloud, ['m', '--interval', '5s', '--listen-host', 'watch.example.com', '--listen-host', 'proxy.internal:8443']);
  });
  afterAll(async () => {
    await (watch as WatchRun | undefined)?.terminate(); // unset if beforeAll failed
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('a rebound name (Host: evil.example.com) gets 421 on every path, the page included', async () => {
    for (const path of ['/api/status', '/metrics', '/api/events', '/api/dashboard/graph', '/api/dashboard/rates', '/healthz', '/']) {
      const answer = await getWithHost(watch.url, path, 'evil.example.com');
      expect({ path, status: answer.status }).toEqual({ path, status: 421 });
      expect(answer.text).toContain('misdirected request');
    }
    expect((await getWithHost(watch.url, '/api/status', `evil.example.com:${new URL(watch.url).port}`)).status).toBe(421);
    expect((await getWithHost(watch.url, '/api/status', undefined)).status).toBe(200);
  });

  test('its own address, localhost, [::1] and the --listen-host names are answered', async () => {
    const port = new URL(watch.url).port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `[::1]:${port}`,
      'watch.example.com',
      `watch.example.com:${port}`,
      'proxy.internal:8443',
    ]) {
      expect({ host, status: (await getWithHost(watch.url, '/api/status', host)).status }).toEqual({ host, status: 200 });
    }
    for (const host of ['proxy.internal', `localhost:${Number(port) + 1}`, 'watch.example.com.evil.test']) {
      expect({ host, status: (await getWithHost(watch.url, '/api/status', host)).status }).toEqual({ host, status: 421 });
    }
  });
});

describe('moor watch --listen on an address in use', () => {
  test('is one line naming the address, exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const port = (taken.address() as AddressInfo).port;
    try {
      const dir = workdir({ 'm/secret.txt': 'watch-port-secret\n', 'm/web.yaml': groupManifest('web') });
      const r = await moor(dir, undefined, ['watch', 'm', '--listen', `127.0.0.1:${port}`], { MOOR_ENDPOINT: 'http://127.0.0.1:9', MOOR_TOKEN: 't' });
      expect(r.code).toBe(1);
      expect(
        r.stderr
          .trim()
          .split('\n')
          .filter((l) => !l.startsWith('moor watch: one stack')),
      ).toEqual([
        `error: --listen 127.0.0.1:${port}: the address is already in use (another process listens there); choose another port, or 0 to pick a free one`,
      ]);
    } finally {
      await new Promise<void>((r) => taken.close(() => r()));
    }
  });
});
