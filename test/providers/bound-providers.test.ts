// Clients bound to a step's request context: the scheduler sees the step (it starts with its first request).
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { NotStartedError } from '../../src/providers/request-context.js';
import { newRequestContext } from '../../src/core/request-context.js';
import { RequestScheduler } from '../../src/providers/request-scheduler.js';
import { ENDPOINTS, failure, harness, mswServer } from './helpers.js';

const server = mswServer();
const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';

describe('forRequests', () => {
  it("a bound client's requests carry the step: it starts with its first request; an interrupted step sends nothing", async () => {
    let gets = 0;
    server.use(
      http.get(`${ENDPOINTS.arm}/subscriptions/${SUB}/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroups/web`, () => {
        gets++;
        return HttpResponse.json({ name: 'web', location: 'westeurope', properties: { containers: [] } });
      }),
    );
    const scheduler = new RequestScheduler({ concurrency: 2 });
    const h = harness({ scheduler });
    const step = newRequestContext(3);
    await h.providers.forRequests(step).arm.getContainerGroup(SUB, 'rg', 'web');
    expect(step.started).toBe(true);
    expect(step.active).toBe(0);
    // The unbound clients stay unbound.
    const other = newRequestContext(1);
    await h.providers.arm.getContainerGroup(SUB, 'rg', 'web');
    expect(other.started).toBe(false);

    const controller = new AbortController();
    controller.abort();
    const interrupted = newRequestContext(1, controller.signal);
    expect(await failure(h.providers.forRequests(interrupted).arm.getContainerGroup(SUB, 'rg', 'web'))).toBeInstanceOf(NotStartedError);
    expect(gets).toBe(2);
  });
});
