// `moor local-cloud --brand-word Microsoft`: official samples and clients write the real brand word,
// and every namespace and type the cloud names in its answers follows it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cloudRequest, startCloud, SUB, type Cloud } from './harness.js';

const GROUP = `/subscriptions/${SUB}/resourceGroups/rg-brand/providers/Microsoft.ContainerInstance/containerGroups/branded`;
const IDENTITY = `/subscriptions/${SUB}/resourcegroups/rg-brand/providers/Microsoft.ManagedIdentity/userAssignedIdentities/app-id`;

describe('a local cloud with a brand word', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ args: ['--brand-word', 'Microsoft'] });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('answers the official name-availability sample, whose type carries the brand word', async () => {
    const path = `/subscriptions/${SUB}/providers/Microsoft.Sql/checkNameAvailability?api-version=2025-01-01`;
    expect(await cloudRequest(cloud, 'POST', path, { name: 'server1', type: 'Microsoft.Sql/servers' })).toEqual({
      status: 200,
      body: { name: 'server1', available: true },
    });
    const taken = await cloudRequest(cloud, 'POST', path, { name: 'sql-prod', type: 'Microsoft.Sql/servers' });
    expect(taken.body).toMatchObject({ available: false, reason: 'AlreadyExists' });
    const wrong = await cloudRequest(cloud, 'POST', path, { name: 'server1', type: 'Microsoft.Web/sites' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'InvalidResourceType', message: "The resource type must be 'Microsoft.Sql/servers'." });
  });

  test('names container groups, their identities, polling and paging in the brand word', async () => {
    const body = {
      location: 'westeurope',
      identity: { type: 'UserAssigned', userAssignedIdentities: { [IDENTITY]: {} } },
      properties: { containers: [{ name: 'app', properties: { image: 'nginx', resources: { requests: { cpu: 1, memoryInGB: 1 } } } }] },
    };
    const put = await fetch(`${cloud.url}${GROUP}?api-version=2026-07-01`, {
      method: 'PUT',
      headers: { authorization: 'Bearer e2e-token', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(put.status).toBe(201);
    expect(put.headers.get('azure-asyncoperation')).toContain('/providers/Microsoft.ContainerInstance/locations/westeurope/operations/');
    const answer = (await put.json()) as { id: string; type: string; identity: { userAssignedIdentities: Record<string, unknown> } };
    expect(answer.id).toBe(GROUP);
    expect(answer.type).toBe('Microsoft.ContainerInstance/containerGroups');
    expect(Object.keys(answer.identity.userAssignedIdentities)).toEqual([IDENTITY]);
    const listed = await cloudRequest(cloud, 'GET', `/subscriptions/${SUB}/providers/Microsoft.ContainerInstance/containerGroups?api-version=2026-07-01`);
    expect(listed.body.value.map((g: { id: string }) => g.id)).toEqual([GROUP]);
    const usage = await cloudRequest(
      cloud,
      'GET',
      `/subscriptions/${SUB}/providers/Microsoft.ContainerInstance/locations/westeurope/usages?api-version=2026-07-01`,
    );
    expect(usage.body.value[0].id).toContain('/providers/Microsoft.ContainerInstance/locations/westeurope/usages/');
    const missing = await cloudRequest(cloud, 'GET', `${GROUP.replace('branded', 'nope')}?api-version=2026-07-01`);
    expect(missing.body.error.message).toContain("'Microsoft.ContainerInstance/containerGroups/nope'");
  });
});
