// No redirect leaves the origin: moor follows same-origin redirects only, a few, a write's method and body kept (issue 13, item 2).
import { describe, expect, it } from 'vitest';
import { createProviders } from '../../src/providers/providers.js';
import { ServiceError } from '../../src/providers/service-error.js';
import { Transport } from '../../src/providers/transport.js';
import { failure } from './helpers.js';
import { hostileServer, json, type HostileServer, type Script } from './hostile-server.js';

const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const TOKEN = 'redirect-test-token';
const SECRET = 'super-secret-secure-value';
const group = {
  location: 'westeurope',
  properties: { containers: [{ name: 'app', properties: { environmentVariables: [{ name: 'PW', secureValue: SECRET }] } }] },
};

function arm(server: HostileServer) {
  return createProviders({ endpoints: { arm: server.url } as never, defaultToken: TOKEN, sleep: async () => undefined }).arm;
}

async function pair(script: (other: HostileServer) => Script) {
  const other = await hostileServer((_req, res) => json(res, 200, { name: 'web', properties: { provisioningState: 'Succeeded' } }));
  const main = await hostileServer(script(other));
  return { main, other };
}

describe('redirects to another origin', () => {
  it('a 307 on a PUT to another host is refused: nothing, no secret and no token, is sent there', async () => {
    const { main, other } = await pair((o) => (req, res) => {
      res.writeHead(307, { location: `${o.url}${req.url}` });
      res.end();
    });
    const err = await failure(arm(main).putContainerGroup(SUB, 'rg', 'web', group));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.status).toBe(307);
    expect(err.code).toBe('RedirectRefused');
    expect(err.message).toContain(`redirected to ${other.url}, which is not the configured endpoint ${main.url}`);
    expect(other.requests).toHaveLength(0);
    // The service had the PUT before it redirected: whether it acted on it is unknown.
    expect(err.outcomeUnknown).toBe(true);
  });

  it('a 302 on a GET to another host is refused too', async () => {
    const { main, other } = await pair((o) => (_req, res) => {
      res.writeHead(302, { location: `${o.url}/elsewhere` });
      res.end();
    });
    const err = await failure(arm(main).getContainerGroup(SUB, 'rg', 'web'));
    expect(err.code).toBe('RedirectRefused');
    expect(other.requests).toHaveLength(0);
  });

  it('a redirect to plain http off loopback is refused', async () => {
    const main = await hostileServer((_req, res) => {
      res.writeHead(302, { location: 'http://example.com/x' });
      res.end();
    });
    const err = await failure(arm(main).getContainerGroup(SUB, 'rg', 'web'));
    expect(err.code).toBe('RedirectRefused');
  });
});

describe('redirects on the same origin', () => {
  it('a 307 on a PUT is followed with the same method, body and token', async () => {
    const main = await hostileServer((req, res) => {
      if (req.url?.startsWith('/moved')) {
        json(res, 200, { name: 'web', properties: { provisioningState: 'Succeeded' } });
        return;
      }
      res.writeHead(307, { location: `/moved${req.url}` });
      res.end();
    });
    await expect(arm(main).putContainerGroup(SUB, 'rg', 'web', group)).resolves.toMatchObject({ name: 'web' });
    expect(main.requests.map((r) => r.method)).toEqual(['PUT', 'PUT']);
    expect(JSON.parse(main.requests[1].body)).toEqual(group);
    expect(main.requests[1].authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('a 302 on a PUT is refused: it would turn the write into a GET', async () => {
    const main = await hostileServer((req, res) => {
      res.writeHead(302, { location: `/moved${req.url}` });
      res.end();
    });
    const err = await failure(arm(main).putContainerGroup(SUB, 'rg', 'web', group));
    expect(err.message).toMatch(/a 302 redirect would turn PUT into GET; refusing to follow/);
    expect(main.requests).toHaveLength(1);
  });

  it('a GET follows a 302 on the origin', async () => {
    const main = await hostileServer((req, res) =>
      req.url?.startsWith('/moved')
        ? json(res, 200, { name: 'web', location: 'westeurope', properties: { containers: [] } })
        : (res.writeHead(302, { location: `/moved${req.url}` }), res.end()),
    );
    await expect(arm(main).getContainerGroup(SUB, 'rg', 'web')).resolves.toMatchObject({ name: 'web' });
  });

  it('stops after 5 redirects', async () => {
    const main = await hostileServer((req, res) => {
      res.writeHead(302, { location: `/again${req.url}` });
      res.end();
    });
    const err = await failure(arm(main).getContainerGroup(SUB, 'rg', 'web'));
    expect(err.message).toMatch(/more than 5 redirects/);
    expect(main.requests).toHaveLength(6);
  });
});

describe('plain http', () => {
  it('is refused off loopback for every request, before anything is sent', async () => {
    let sent = 0;
    const t = new Transport({
      service: 'arm',
      baseUrl: new URL('http://10.0.0.1'),
      token: async () => TOKEN,
      fetch: async () => {
        sent++;
        return new Response('{}');
      },
    });
    const err = await failure(t.request({ method: 'GET', path: '/x' }));
    expect(err.message).toMatch(/refusing to send a request over plain http:\/\/ to 10\.0\.0\.1/);
    expect(sent).toBe(0);
  });
});
