// Abort reaches waits: a step interrupted (Ctrl-C) while its client waits between polls of an
// operation, or before a retry, stops waiting at once; what was sent is not sent again.
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { InterruptedWaitError } from '../../src/providers/request-context.js';
import { newRequestContext } from '../../src/core/request-context.js';
import { ServiceError } from '../../src/providers/service-error.js';
import { isInterruption } from '../../src/core/interrupted.js';
import { ENDPOINTS, failure, harness, mswServer } from './helpers.js';

const server = mswServer();
const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const groupUrl = `${ENDPOINTS.arm}/subscriptions/${SUB}/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroups/web`;

/** A sleep that interrupts the run as it starts and never ends by itself: only the abort can end the wait. */
function interruptingSleep(controller: AbortController, sleeps: number[]) {
  return (ms: number): Promise<void> => {
    sleeps.push(ms);
    controller.abort();
    return new Promise(() => undefined);
  };
}

describe('interrupted waits', () => {
  it('a poll wait of a bound client ends on abort with an interrupted error; the PUT is not sent again', async () => {
    const seen: string[] = [];
    server.use(
      http.put(groupUrl, () => {
        seen.push('PUT');
        return HttpResponse.json(
          { name: 'web', properties: { provisioningState: 'Creating', containers: [] } },
          {
            status: 201,
            headers: { 'Azure-AsyncOperation': `${ENDPOINTS.arm}/operations/op1?api-version=2026-07-01`, 'Retry-After': '30' },
          },
        );
      }),
      http.get(groupUrl, () => {
        seen.push('GET');
        return HttpResponse.json({ name: 'web', properties: { provisioningState: 'Succeeded', containers: [] } });
      }),
    );
    const controller = new AbortController();
    const sleeps: number[] = [];
    const h = harness({ sleep: interruptingSleep(controller, sleeps) });
    const step = newRequestContext(1, controller.signal);
    const err = await failure(
      h.providers.forRequests(step).arm.putContainerGroup(SUB, 'rg', 'web', { location: 'westeurope', properties: { containers: [] } }),
    );
    expect(err).toBeInstanceOf(InterruptedWaitError);
    expect(err.message).toContain('interrupted while waiting for the operation to finish');
    expect(isInterruption(err)).toBe(true); // apply reports the step as interrupted, not failed
    expect(seen).toEqual(['PUT']);
    expect(sleeps).toEqual([30_000]);
  });

  it('a retry wait ends on abort with the last answer as the error; no further attempt', async () => {
    let gets = 0;
    server.use(
      http.get(groupUrl, () => {
        gets++;
        return HttpResponse.json({ error: { code: 'Busy', message: 'try later' } }, { status: 503 });
      }),
    );
    const controller = new AbortController();
    const h = harness({ sleep: interruptingSleep(controller, []) });
    const step = newRequestContext(1, controller.signal);
    const err = await failure(h.providers.forRequests(step).arm.getContainerGroup(SUB, 'rg', 'web'));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.status).toBe(503);
    expect(err.message).toContain('interrupted before trying again');
    expect(isInterruption(err)).toBe(true);
    expect(gets).toBe(1);
  });

  it('without an interruption the waits pass as before', async () => {
    let gets = 0;
    server.use(
      http.get(groupUrl, () =>
        ++gets < 2
          ? HttpResponse.json({ error: { code: 'Busy' } }, { status: 503, headers: { 'Retry-After': '1' } })
          : HttpResponse.json({ name: 'web', location: 'westeurope', properties: { containers: [] } }),
      ),
    );
    const h = harness();
    const step = newRequestContext(1, new AbortController().signal);
    await h.providers.forRequests(step).arm.getContainerGroup(SUB, 'rg', 'web');
    expect(gets).toBe(2);
    expect(h.sleeps).toEqual([1000]);
  });
});
