// The transport tells the run's event stream itself: answers, retries, throttles and poll waits,
// each carrying the address of the step whose request it was (its RequestContext).
import { describe, expect, test } from 'vitest';
import { recordingSink } from '../core/events.js';
import { createProviders } from './providers.js';
import { newRequestContext } from '../core/request-context.js';
import { Transport } from './transport.js';

const BASE = 'https://arm.test';
const TOKEN = 'a-token-long-enough';
const GROUP = '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.ContainerInstance/containerGroups/web';

/** A fetch answering from a list, in order; an Error in the list is thrown as a lost connection. */
function scriptedFetch(answers: (Response | Error)[]): typeof fetch {
  return async () => {
    const next = answers.shift();
    if (next === undefined) throw new Error('no answer left in the script');
    if (next instanceof Error) throw next;
    return next;
  };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function connectionReset(): Error {
  return Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
}

describe("the transport's events", () => {
  test("a step's throttle, retries and answers carry its address; a 429 is throttled, a 503 and a lost answer are retries", async () => {
    const { sink, events } = recordingSink();
    const transport = new Transport({
      service: 'arm',
      baseUrl: new URL(BASE),
      token: async () => TOKEN,
      events: sink,
      sleep: async () => undefined,
      random: () => 1,
      fetch: scriptedFetch([json({}, 429, { 'retry-after': '4' }), json({}, 503, { 'retry-after': '1' }), connectionReset(), json({ name: 'web' })]),
    });
    const step = newRequestContext(1, undefined, undefined, 'ContainerGroup/web');
    await transport.request({ method: 'GET', path: `${GROUP}?api-version=1`, label: 'containerGroups/web' }, step);
    const request = { service: 'arm', method: 'GET', path: GROUP, label: 'containerGroups/web', address: 'ContainerGroup/web' };
    expect(events).toEqual([
      { type: 'request_answered', ...request, status: 429, attempt: 1 },
      { type: 'throttled', ...request, status: 429, attempt: 1, delayMs: 4000 },
      { type: 'request_answered', ...request, status: 503, attempt: 2 },
      { type: 'request_retried', ...request, status: 503, attempt: 2, delayMs: 1000 },
      { type: 'request_retried', ...request, attempt: 3, delayMs: expect.any(Number) as number },
      { type: 'request_answered', ...request, status: 200, attempt: 4 },
    ]);
  });

  test('a request of no step has no address on its events', async () => {
    const { sink, events } = recordingSink();
    const transport = new Transport({
      service: 'arm',
      baseUrl: new URL(BASE),
      token: async () => TOKEN,
      events: sink,
      sleep: async () => undefined,
      fetch: scriptedFetch([json({}, 429, { 'retry-after': '2' }), json({ name: 'web' })]),
    });
    await transport.request({ method: 'GET', path: GROUP, label: 'containerGroups/web' });
    expect(events.map((e) => e.type)).toEqual(['request_answered', 'throttled', 'request_answered']);
    expect(events.every((e) => !('address' in e))).toBe(true);
  });

  test("the poll waits of a step's clients (forRequests) carry its address", async () => {
    const { sink, events } = recordingSink();
    const providers = createProviders({
      endpoints: { arm: BASE, graph: '', analytics: '', fabric: '', lcs: '', connector: '' },
      defaultToken: TOKEN,
      events: sink,
      sleep: async () => undefined,
      fetch: scriptedFetch([
        new Response(null, { status: 202, headers: { 'azure-asyncoperation': `${BASE}/op/1`, 'retry-after': '20' } }),
        json({ status: 'InProgress' }, 200, { 'retry-after': '20' }),
        json({ status: 'Succeeded' }),
        json({ name: 'web', properties: { provisioningState: 'Succeeded' } }),
      ]),
    });
    const step = newRequestContext(1, undefined, undefined, 'ContainerGroup/web');
    await providers.forRequests(step).arm.putContainerGroup('s1', 'rg', 'web', {});
    const polls = events.filter((e) => e.type === 'poll_wait');
    expect(polls).toHaveLength(2);
    for (const p of polls)
      expect(p).toMatchObject({ service: 'arm', method: 'PUT', label: 'containerGroups/web', delayMs: 20_000, address: 'ContainerGroup/web' });
    expect(events.filter((e) => e.type === 'request_answered').every((e) => e.address === 'ContainerGroup/web')).toBe(true);
  });
});
