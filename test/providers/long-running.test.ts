// ARM long-running operations: Azure-AsyncOperation, Location and provisioningState polling; failure.
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { ServiceError } from '../../src/providers/service-error.js';
import { ENDPOINTS, failure, harness, mswServer } from './helpers.js';

const server = mswServer();

const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const groupUrl = `${ENDPOINTS.arm}/subscriptions/${SUB}/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroups/web`;
const withState = (state: string) => ({ name: 'web', properties: { provisioningState: state, containers: [] } });

describe('putContainerGroup', () => {
  it('reads the resource once after Retry-After; still running: polls Azure-AsyncOperation until Succeeded, then GETs the resource', async () => {
    let polls = 0;
    let gets = 0;
    let sent: unknown;
    server.use(
      http.put(groupUrl, async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(withState('Pending'), {
          status: 201,
          headers: { 'Azure-AsyncOperation': `${ENDPOINTS.arm}/operations/op1?api-version=2026-07-01`, 'Retry-After': '3' },
        });
      }),
      http.get(`${ENDPOINTS.arm}/operations/op1`, () =>
        HttpResponse.json({ status: ++polls < 3 ? 'InProgress' : 'Succeeded' }, { headers: { 'Retry-After': '3' } }),
      ),
      http.get(groupUrl, () => {
        gets++;
        return HttpResponse.json(withState(gets === 1 ? 'Creating' : 'Succeeded'));
      }),
    );
    const h = harness();
    const body = { location: 'westeurope', properties: { containers: [] } };
    const result = await h.providers.arm.putContainerGroup(SUB, 'rg', 'web', body);
    expect(sent).toEqual(body);
    expect(result.properties?.provisioningState).toBe('Succeeded');
    expect(polls).toBe(3);
    // The first read (still Creating), then the final one after the operation succeeded.
    expect(gets).toBe(2);
    expect(h.sleeps).toEqual([3000, 3000, 3000, 3000]);
  });

  it('when the resource is done at the first read after Retry-After, that read is the answer: two requests in all', async () => {
    const seen: string[] = [];
    server.use(
      http.put(groupUrl, () => {
        seen.push('PUT');
        return HttpResponse.json(withState('Pending'), {
          status: 201,
          headers: { 'Azure-AsyncOperation': `${ENDPOINTS.arm}/operations/op3`, 'Retry-After': '2' },
        });
      }),
      http.get(`${ENDPOINTS.arm}/operations/op3`, () => {
        seen.push('operation');
        return HttpResponse.json({ status: 'Succeeded' });
      }),
      http.get(groupUrl, () => {
        seen.push('GET');
        return HttpResponse.json(withState('Succeeded'));
      }),
    );
    const h = harness();
    const result = await h.providers.arm.putContainerGroup(SUB, 'rg', 'web', {});
    expect(result.properties?.provisioningState).toBe('Succeeded');
    expect(seen).toEqual(['PUT', 'GET']);
    expect(h.sleeps).toEqual([2000]);
  });

  it('a resource that reads Failed is a ServiceError with the error its operation gives', async () => {
    server.use(
      http.put(groupUrl, () =>
        HttpResponse.json(withState('Pending'), { status: 201, headers: { 'Azure-AsyncOperation': `${ENDPOINTS.arm}/operations/op4` } }),
      ),
      http.get(groupUrl, () => HttpResponse.json(withState('Failed'))),
      http.get(`${ENDPOINTS.arm}/operations/op4`, () =>
        HttpResponse.json({ status: 'Failed', error: { code: 'ImagePullFailed', message: 'image not found' } }),
      ),
    );
    const err = await failure(harness({ pollIntervalMs: 0 }).providers.arm.putContainerGroup(SUB, 'rg', 'web', {}));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.message).toBe('PUT containerGroups/web: 200 ImagePullFailed: the operation ended Failed: image not found');
  });

  it('caps the wait by pollIntervalMs', async () => {
    let polls = 0;
    server.use(
      http.put(groupUrl, () => HttpResponse.json(withState('Creating'), { status: 201, headers: { 'Retry-After': '10' } })),
      http.get(groupUrl, () => HttpResponse.json(withState(++polls < 2 ? 'Creating' : 'Succeeded'), { headers: { 'Retry-After': '10' } })),
    );
    const h = harness({ pollIntervalMs: 5 });
    const result = await h.providers.arm.putContainerGroup(SUB, 'rg', 'web', {});
    expect(result.properties?.provisioningState).toBe('Succeeded');
    expect(h.sleeps).toEqual([5, 5]);
  });

  it('returns at once when the PUT answer is already Succeeded', async () => {
    let gets = 0;
    server.use(
      http.put(groupUrl, () => HttpResponse.json(withState('Succeeded'), { status: 200 })),
      http.get(groupUrl, () => {
        gets++;
        return HttpResponse.json(withState('Succeeded'));
      }),
    );
    const h = harness();
    await h.providers.arm.putContainerGroup(SUB, 'rg', 'web', {});
    expect(gets).toBe(0);
    expect(h.sleeps).toEqual([]);
  });

  it('a Failed operation is a ServiceError with the operation error', async () => {
    server.use(
      http.put(groupUrl, () =>
        HttpResponse.json(withState('Pending'), { status: 201, headers: { 'Azure-AsyncOperation': `${ENDPOINTS.arm}/operations/op2` } }),
      ),
      http.get(`${ENDPOINTS.arm}/operations/op2`, () =>
        HttpResponse.json({ status: 'Failed', error: { code: 'ImagePullFailed', message: 'image not found' } }),
      ),
      http.get(groupUrl, () => HttpResponse.json(withState('Pending'))),
    );
    const err = await failure(harness({ pollIntervalMs: 0 }).providers.arm.putContainerGroup(SUB, 'rg', 'web', {}));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.message).toBe('PUT containerGroups/web: 200 ImagePullFailed: the operation ended Failed: image not found');
  });

  it('refuses a polling URL on another origin', async () => {
    server.use(
      http.put(groupUrl, () => HttpResponse.json(withState('Pending'), { status: 201, headers: { 'Azure-AsyncOperation': 'https://elsewhere.test/op' } })),
      http.get(groupUrl, () => HttpResponse.json(withState('Pending'))),
    );
    const err = await failure(harness({ pollIntervalMs: 0 }).providers.arm.putContainerGroup(SUB, 'rg', 'web', {}));
    expect(err.message).toMatch(/not its configured endpoint/);
  });
});

describe('deleteContainerGroup', () => {
  it('polls Location while it answers 202', async () => {
    let polls = 0;
    server.use(
      http.delete(groupUrl, () => new HttpResponse(null, { status: 202, headers: { Location: `${ENDPOINTS.arm}/operationResults/d1`, 'Retry-After': '2' } })),
      http.get(`${ENDPOINTS.arm}/operationResults/d1`, () => new HttpResponse(null, { status: ++polls < 3 ? 202 : 204, headers: { 'Retry-After': '2' } })),
    );
    const h = harness();
    await h.providers.arm.deleteContainerGroup(SUB, 'rg', 'web');
    expect(polls).toBe(3);
    expect(h.sleeps).toEqual([2000, 2000, 2000]);
  });

  it.each([[404], [204], [200]])('treats %s as done without polling', async (status) => {
    // A 200's body is JSON with its content type: an answer of another type is not believed (answer-shape.ts).
    server.use(http.delete(groupUrl, () => (status === 200 ? HttpResponse.json({}) : new HttpResponse(null, { status }))));
    const h = harness();
    await h.providers.arm.deleteContainerGroup(SUB, 'rg', 'web');
    expect(h.sleeps).toEqual([]);
  });
});
