// The fencing hook: checked before every request that is not a GET; when it throws, nothing is sent.
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { UserError } from '../../src/core/diagnostics.js';
import { ENDPOINTS, failure, harness, mswServer } from './helpers.js';

const server = mswServer();
const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const groupUrl = `${ENDPOINTS.arm}/subscriptions/${SUB}/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroups/web`;
const group = { name: 'web', location: 'westeurope', properties: { provisioningState: 'Succeeded', containers: [] } };
const exportUrl = `${ENDPOINTS.lcs}/databasemovement/v1/export/project/1/environment/env/backupName/b`;

describe('beforeWrite', () => {
  it('is not called for GET, and is called before each attempt of a write', async () => {
    const received: string[] = [];
    let attempts = 0;
    server.use(
      http.get(groupUrl, () => {
        received.push('GET');
        return HttpResponse.json(group);
      }),
      http.delete(groupUrl, () => {
        received.push('DELETE');
        return ++attempts === 1 ? new HttpResponse(null, { status: 503 }) : new HttpResponse(null, { status: 200 });
      }),
    );
    let checks = 0;
    const h = harness({
      beforeWrite: async () => {
        checks++;
      },
    });
    await h.providers.arm.getContainerGroup(SUB, 'rg', 'web');
    expect(checks).toBe(0);
    await h.providers.arm.deleteContainerGroup(SUB, 'rg', 'web');
    expect(received).toEqual(['GET', 'DELETE', 'DELETE']);
    expect(checks).toBe(2);
  });

  it('a check that throws stops the request before anything is sent, with its own error', async () => {
    const received: string[] = [];
    server.use(
      http.post(exportUrl, () => {
        received.push('POST');
        return HttpResponse.json({ IsSuccess: true, OperationActivityId: 'a' });
      }),
    );
    const h = harness({
      beforeWrite: async () => {
        throw new UserError('lost the state lock (taken over by bob@ci)');
      },
    });
    const err = await failure(h.providers.lcs.exportDatabase('1', 'env', 'b'));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toContain('lost the state lock (taken over by bob@ci)');
    expect(received).toEqual([]);
  });
});
