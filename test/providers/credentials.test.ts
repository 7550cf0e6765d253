// Endpoints and tokens: http:// only on loopback, tokenEnv/tokenCommand sources, a command run once.
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { UserError } from '../../src/core/diagnostics.js';
import { checkEndpoint, isLoopback, resolveUrl } from '../../src/providers/endpoint.js';
import { createProviders } from '../../src/providers/providers.js';
import { createTokenSource } from '../../src/providers/token-source.js';
import { ENDPOINTS, failure, mswServer } from './helpers.js';

const server = mswServer();

describe('endpoints', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['[::1]', true],
    ['10.0.0.1', false],
    ['example.net', false],
    ['127.0.0.1.example.net', false],
  ])('%s is loopback: %s', (host, expected) => {
    expect(isLoopback(host)).toBe(expected);
  });

  it('refuses plain http:// for a host that is not loopback', () => {
    expect(() => checkEndpoint('arm', 'http://management.example.net')).toThrow(UserError);
    expect(() => checkEndpoint('arm', 'http://management.example.net')).toThrow(/only loopback/);
    expect(() => createProviders({ endpoints: { ...ENDPOINTS, graph: 'http://graph.example.net' } })).toThrow(/service 'graph'/);
  });

  it('accepts http:// on loopback and https anywhere', () => {
    expect(checkEndpoint('arm', 'http://127.0.0.1:4010').port).toBe('4010');
    expect(checkEndpoint('arm', 'https://management.example.net').hostname).toBe('management.example.net');
  });

  it('keeps the base path and refuses absolute URLs on another origin', () => {
    const base = new URL('https://connector.example.net/tenant-a/');
    expect(resolveUrl('connector', base, '/v3/conversations').href).toBe('https://connector.example.net/tenant-a/v3/conversations');
    expect(resolveUrl('connector', base, 'https://connector.example.net/next?x=1').href).toBe('https://connector.example.net/next?x=1');
    expect(() => resolveUrl('connector', base, 'https://evil.example.org/next')).toThrow(/not its configured endpoint/);
  });
});

describe('tokens', () => {
  it('runs tokenCommand once per service however many requests', async () => {
    const commands: string[] = [];
    let auth: string[] = [];
    server.use(
      http.get('https://graph.test/*', ({ request }) => {
        auth.push(request.headers.get('authorization') ?? '');
        // The answer names the id asked for: another id would not be believed.
        return HttpResponse.json({ id: new URL(request.url).pathname.split('/').pop() });
      }),
    );
    const p = createProviders({
      endpoints: ENDPOINTS,
      credentials: { graph: { tokenCommand: 'get-token --resource graph' } },
      runCommand: async (cmd) => {
        commands.push(cmd);
        return '  cmd-token\n';
      },
    });
    await Promise.all([p.graph.getAuthContext('c1'), p.graph.getAuthContext('c2'), p.graph.getAuthContext('c3')]);
    expect(commands).toEqual(['get-token --resource graph']);
    expect(auth).toEqual(['Bearer cmd-token', 'Bearer cmd-token', 'Bearer cmd-token']);
    auth = [];
  });

  it('a failing tokenCommand is a UserError that does not show its output', async () => {
    const source = createTokenSource({
      service: 'arm',
      source: { tokenCommand: 'node -e "console.log(\'leaked-secret\'); process.exit(3)"' },
    });
    const err = await failure(source());
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toMatch(/credentials\.arm\.tokenCommand failed \(exited with status 3\)/);
    expect(err.message).not.toContain('leaked-secret');
  });

  it('reads tokenEnv from the environment, and names a missing variable', async () => {
    await expect(createTokenSource({ service: 'lcs', source: { tokenEnv: 'LCS_TOKEN' }, env: { LCS_TOKEN: 'x1' } })()).resolves.toBe('x1');
    const err = await failure(createTokenSource({ service: 'lcs', source: { tokenEnv: 'LCS_TOKEN' }, env: {} })());
    expect(err.message).toContain('LCS_TOKEN');
  });

  it('falls back to the default token, or none', async () => {
    await expect(createTokenSource({ service: 'arm', defaultToken: 'd' })()).resolves.toBe('d');
    await expect(createTokenSource({ service: 'arm' })()).resolves.toBeUndefined();
  });
});
