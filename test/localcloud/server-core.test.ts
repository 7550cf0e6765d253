// The HTTP core: routing, auth, JSON bodies, errors in the service's shape, request ids.
import { describe, expect, it } from 'vitest';
import type { LocalService } from '../../src/localcloud/types.js';
import { call, cloud } from './helpers.js';

const echo: LocalService = {
  name: 'graph',
  routes: [
    { method: 'POST', path: '/Things/:id', handler: (req) => ({ status: 200, body: { id: req.params.id, got: req.body } }) },
    { method: 'GET', path: '/things/special', handler: () => ({ status: 200, body: { special: true } }) },
    { method: 'GET', path: '/things/:id', handler: (req) => ({ status: 200, body: { id: req.params.id } }) },
    {
      method: 'GET',
      path: '/boom',
      handler: () => {
        throw new Error('kaput');
      },
    },
  ],
  errorBody: (status, code, message, requestId) => ({ error: { code, message, innerError: { 'request-id': requestId } } }),
  responseHeaders: (requestId) => ({ 'request-id': requestId }),
};

describe('local cloud core', () => {
  it('refuses a request without a token, or with a wrong one, with 401 in the service error shape', async () => {
    const c = await cloud({}, [echo]);
    for (const token of [null, 'wrong-token']) {
      const res = await call(`${c.url}/things/a`, { token });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('InvalidAuthenticationToken');
      expect(res.body.error.innerError['request-id']).toBe(res.headers.get('request-id'));
    }
  });

  it('accepts the configured token and no other', async () => {
    const c = await cloud({ token: 'sekrit' }, [echo]);
    expect((await call(`${c.url}/things/a`, { token: 'sekrit' })).status).toBe(200);
    expect((await call(`${c.url}/things/a`)).status).toBe(401);
  });

  it('matches literal segments case-insensitively and decodes params', async () => {
    const c = await cloud({}, [echo]);
    const res = await call(`${c.url}/THINGS/a%20b`, { method: 'POST', body: { x: 1 } });
    expect(res.body).toEqual({ id: 'a b', got: { x: 1 } });
  });

  it('prefers a literal segment over a parameter', async () => {
    const c = await cloud({}, [echo]);
    expect((await call(`${c.url}/things/special`)).body).toEqual({ special: true });
  });

  it('answers malformed JSON with 400 in the service error shape', async () => {
    const c = await cloud({}, [echo]);
    const res = await call(`${c.url}/things/a`, { method: 'POST', body: '{"x":' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('InvalidRequestContent');
  });

  it('answers an unknown route with a neutral 404 and a wrong method with 405', async () => {
    const c = await cloud({}, [echo]);
    const missing = await call(`${c.url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NotFound');
    const wrong = await call(`${c.url}/things/a`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
  });

  it('turns a handler exception into 500 in the service error shape', async () => {
    const c = await cloud({}, [echo]);
    const res = await call(`${c.url}/boom`);
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('InternalServerError');
    expect(JSON.stringify(res.body)).not.toContain('kaput');
  });

  it('echoes the client request id', async () => {
    const c = await cloud({}, [echo]);
    const res = await call(`${c.url}/things/a`, { headers: { 'x-ms-client-request-id': 'abc-123' } });
    expect(res.headers.get('x-ms-client-request-id')).toBe('abc-123');
  });

  it('gives every request its own id', async () => {
    const c = await cloud({}, [echo]);
    const a = await call(`${c.url}/things/a`);
    const b = await call(`${c.url}/things/a`);
    expect(a.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('request-id')).not.toBe(b.headers.get('request-id'));
  });
});
