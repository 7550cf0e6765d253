// Token lifetimes: tokenCommand output as a bare token or JSON with an expiry, renewal before
// expiry, and one renewal and resend after a 401.
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { createProviders } from '../../src/providers/providers.js';
import { expiresSoon, parseTokenOutput } from '../../src/providers/token-output.js';
import { createTokenSource } from '../../src/providers/token-source.js';
import { ENDPOINTS, failure, mswServer } from './helpers.js';

const server = mswServer();
const T0 = Date.parse('2026-05-01T12:00:00Z');

describe('tokenCommand output', () => {
  it('reads a bare token with no expiry', () => {
    expect(parseTokenOutput('  abc.def.ghi\n', T0)).toEqual({ value: 'abc.def.ghi' });
  });

  it('reads az-style JSON: accessToken with expires_on in unix seconds', () => {
    const out = JSON.stringify({ accessToken: 'tok-1', expiresOn: '2026-05-01 13:00:00.000000', expires_on: T0 / 1000 + 3600, tokenType: 'Bearer' });
    expect(parseTokenOutput(out, T0)).toEqual({ value: 'tok-1', expiresAt: T0 + 3_600_000 });
  });

  it('reads expiresOn as a date, and access_token with expires_in', () => {
    expect(parseTokenOutput(JSON.stringify({ accessToken: 't', expiresOn: '2026-05-01T12:30:00Z' }), T0).expiresAt).toBe(T0 + 1_800_000);
    expect(parseTokenOutput(JSON.stringify({ access_token: 't2', expires_in: 60 }), T0)).toEqual({ value: 't2', expiresAt: T0 + 60_000 });
  });

  it('refuses JSON without a token, and never quotes the output', () => {
    expect(() => parseTokenOutput('{"secretish": "s3cr3t-value"}', T0)).toThrow(/without accessToken/);
    expect(() => parseTokenOutput('{"secretish": "s3cr3t-value"}', T0)).not.toThrow(/s3cr3t/);
    expect(() => parseTokenOutput('{not json s3cr3t', T0)).toThrow(/not valid JSON/);
  });

  it('renews within a third of the lifetime, at most two minutes before expiry', () => {
    const hour = { value: 't', expiresAt: T0 + 3_600_000 };
    expect(expiresSoon(hour, T0, T0 + 3_600_000 - 121_000)).toBe(false);
    expect(expiresSoon(hour, T0, T0 + 3_600_000 - 119_000)).toBe(true);
    const short = { value: 't', expiresAt: T0 + 3000 };
    expect(expiresSoon(short, T0, T0 + 1900)).toBe(false);
    expect(expiresSoon(short, T0, T0 + 2100)).toBe(true);
    expect(expiresSoon({ value: 'bare' }, T0, T0 + 1e12)).toBe(false);
  });
});

describe('token source', () => {
  it('runs the command again once its token nears expiry, not before', async () => {
    let clock = T0;
    let runs = 0;
    const source = createTokenSource({
      service: 'lcs',
      source: { tokenCommand: 'tok' },
      now: () => clock,
      run: async () => JSON.stringify({ accessToken: `t${++runs}`, expires_on: clock / 1000 + 600 }),
    });
    expect(await source()).toBe('t1');
    clock += 300_000;
    expect(await source()).toBe('t1');
    clock += 200_000;
    expect(await source()).toBe('t2');
    expect(runs).toBe(2);
  });

  it('renew gives a new token once per refused token, shared by concurrent callers', async () => {
    let runs = 0;
    const source = createTokenSource({ service: 'arm', source: { tokenCommand: 'tok' }, run: async () => `token-${++runs}` });
    expect(await source()).toBe('token-1');
    const [a, b] = await Promise.all([source.renew!('token-1'), source.renew!('token-1')]);
    expect([a, b]).toEqual(['token-2', 'token-2']);
    expect(runs).toBe(2);
    expect(await source()).toBe('token-2');
  });

  it('a variable or the default token cannot be renewed', async () => {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- only its absence is checked
    expect(createTokenSource({ service: 'arm', defaultToken: 'd' }).renew).toBeUndefined();
    // eslint-disable-next-line @typescript-eslint/unbound-method -- only its absence is checked
    expect(createTokenSource({ service: 'arm', source: { tokenEnv: 'X' }, env: { X: 'x' } }).renew).toBeUndefined();
  });
});

describe('transport and 401', () => {
  it('renews the token after a 401 and sends the request again, once', async () => {
    const seen: string[] = [];
    server.use(
      http.post('https://lcs.test/databasemovement/v1/export/*', ({ request }) => {
        const auth = request.headers.get('authorization') ?? '';
        seen.push(auth);
        if (auth !== 'Bearer fresh-2') return HttpResponse.json({ ErrorMessage: 'token expired' }, { status: 401 });
        return HttpResponse.json({ IsSuccess: true, OperationActivityId: 'op-1' });
      }),
    );
    let runs = 0;
    const p = createProviders({ endpoints: ENDPOINTS, credentials: { lcs: { tokenCommand: 'x' } }, runCommand: async () => `fresh-${++runs}` });
    const result = await p.lcs.exportDatabase('1', 'e', 'b');
    expect(result.IsSuccess).toBe(true);
    expect(seen).toEqual(['Bearer fresh-1', 'Bearer fresh-2']);
  });

  it('a second 401 with the renewed token is the error, and the token is not in it', async () => {
    server.use(http.get('https://graph.test/*', () => HttpResponse.json({ error: { code: 'InvalidAuthenticationToken', message: 'nope' } }, { status: 401 })));
    let runs = 0;
    const p = createProviders({ endpoints: ENDPOINTS, credentials: { graph: { tokenCommand: 'x' } }, runCommand: async () => `graph-token-${++runs}` });
    const err = await failure(p.graph.getAuthContext('c1'));
    expect(err.status).toBe(401);
    expect(runs).toBe(2);
    expect(err.message).not.toMatch(/graph-token-/);
  });

  it('a 401 with a token that cannot be renewed fails at once', async () => {
    let calls = 0;
    server.use(
      http.get('https://graph.test/*', () => {
        calls++;
        return HttpResponse.json({ error: { code: 'InvalidAuthenticationToken', message: 'nope' } }, { status: 401 });
      }),
    );
    const p = createProviders({ endpoints: ENDPOINTS, defaultToken: 'static-token' });
    expect((await failure(p.graph.getAuthContext('c1'))).status).toBe(401);
    expect(calls).toBe(1);
  });
});
