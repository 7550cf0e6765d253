// Container groups on the local cloud: asynchronous create/update/delete, server fields, hidden secrets, 409s.
import { describe, expect, it } from 'vitest';
import { call, cloud, fakeClock, groupBody, groupUrl, SUB } from './helpers.js';

describe('container groups', () => {
  it('creates with 201 and a pending state, then reports Succeeded through the Azure-AsyncOperation URL', async () => {
    const clock = fakeClock();
    const c = await cloud({ provisioningMs: 1000, now: clock.now });
    const put = await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody() });
    expect(put.status).toBe(201);
    expect(put.body.properties.provisioningState).toBe('Pending');
    expect(put.body.properties.instanceView.state).toBe('Pending');
    expect(put.headers.get('retry-after')).toBe('1');
    const statusUrl = put.headers.get('azure-asyncoperation')!;
    expect(statusUrl.startsWith(`${c.url}/subscriptions/${SUB}/providers/Vendor.ContainerInstance/locations/westeurope/operations/`)).toBe(true);
    const first = await call(statusUrl);
    expect(first.body).toMatchObject({ status: 'InProgress', name: expect.any(String), startTime: expect.any(String) });
    expect((await call(groupUrl(c.url, 'web'))).body.properties.provisioningState).toBe('Pending');
    clock.advance(1000);
    const final = await call(statusUrl);
    expect(final.body.status).toBe('Succeeded');
    expect(final.body.endTime).toEqual(expect.any(String));
    const get = await call(groupUrl(c.url, 'web'));
    expect(get.body.properties.provisioningState).toBe('Succeeded');
    expect(get.body.properties.instanceView.state).toBe('Running');
    expect(get.body.properties.containers[0].properties.instanceView.currentState.state).toBe('Running');
  });

  it('ends provisioning in Failed, with an error on the status resource, for an image marked to fail', async () => {
    const clock = fakeClock();
    const c = await cloud({ provisioningMs: 1000, now: clock.now });
    const body = groupBody(
      {},
      { containers: [{ name: 'web', properties: { image: 'example.net/moor-fail-provisioning:1', resources: { requests: { cpu: 1, memoryInGB: 1 } } } }] },
    );
    const put = await call(groupUrl(c.url, 'web'), { method: 'PUT', body });
    expect(put.status).toBe(201);
    clock.advance(1000);
    const final = await call(put.headers.get('azure-asyncoperation')!);
    expect(final.body.status).toBe('Failed');
    expect(final.body.error.code).toBe('ContainerGroupProvisioningFailed');
    expect((await call(groupUrl(c.url, 'web'))).body.properties.provisioningState).toBe('Failed');
  });

  it('answers an update with 200 and Updating', async () => {
    const clock = fakeClock();
    const c = await cloud({ provisioningMs: 1000, now: clock.now });
    await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody() });
    clock.advance(1000); // a write during provisioning is refused (next test)
    const put = await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody({ tags: { team: 'a' } }) });
    expect(put.status).toBe(200);
    expect(put.body.properties.provisioningState).toBe('Updating');
    expect(put.body.tags).toEqual({ team: 'a' });
  });

  it('refuses a write while the group is still provisioning with 409 AnotherOperationInProgress and a Retry-After date', async () => {
    const clock = fakeClock();
    const c = await cloud({ provisioningMs: 1000, now: clock.now });
    await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody() });
    const second = await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody({ tags: { team: 'b' } }) });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('AnotherOperationInProgress');
    const retryAt = Date.parse(second.headers.get('retry-after')!);
    expect(retryAt).toBeGreaterThanOrEqual(clock.now().getTime() + 1000);
    expect(second.headers.get('retry-after')).toMatch(/GMT$/);
    clock.advance(1000);
    expect((await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody({ tags: { team: 'b' } }) })).status).toBe(200);
  });

  it('answers synchronously with Succeeded when provisioning takes no time', async () => {
    const c = await cloud({ provisioningMs: 0 });
    const put = await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody() });
    expect(put.status).toBe(201);
    expect(put.body.properties.provisioningState).toBe('Succeeded');
  });

  it('fills server fields and the service defaults the request left out', async () => {
    const c = await cloud();
    const uai = `/subscriptions/${SUB}/resourceGroups/rg-id/providers/Vendor.ManagedIdentity/userAssignedIdentities/app`;
    const body = groupBody(
      { identity: { type: 'SystemAssigned, UserAssigned', userAssignedIdentities: { [uai]: {} } } },
      {
        ipAddress: { type: 'Public', dnsNameLabel: 'web-demo', ports: [{ port: 80 }] },
        standbyPoolProfile: { id: `/subscriptions/${SUB}/resourceGroups/rg/providers/Vendor.StandbyPool/standbyContainerGroupPools/p` },
      },
    );
    const res = await call(groupUrl(c.url, 'web'), { method: 'PUT', body });
    const g = res.body;
    expect(g.id).toBe(`/subscriptions/${SUB}/resourceGroups/rg-web/providers/Vendor.ContainerInstance/containerGroups/web`);
    expect(g.name).toBe('web');
    expect(g.type).toBe('Vendor.ContainerInstance/containerGroups');
    expect(g.systemData).toMatchObject({ createdAt: expect.any(String), lastModifiedAt: expect.any(String), createdByType: 'User' });
    expect(g.properties).toMatchObject({ sku: 'Standard', restartPolicy: 'Always', osType: 'Linux', isCreatedFromStandbyPool: true });
    expect(g.properties.ipAddress.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(g.properties.ipAddress.fqdn).toBe('web-demo.westeurope.azurecontainer.local');
    expect(g.identity.principalId).toMatch(/^[0-9a-f-]{36}$/);
    expect(g.identity.tenantId).toMatch(/^[0-9a-f-]{36}$/);
    // As ARM answers it: the identity id with `resourcegroups` in lower case (changed on purpose, issue 9).
    expect(g.identity.userAssignedIdentities[uai.replace('/resourceGroups/', '/resourcegroups/')]).toEqual({
      clientId: expect.any(String),
      principalId: expect.any(String),
    });
  });

  it('answers as ARM does: the canonical location, the resource group as first written', async () => {
    const c = await cloud();
    const first = await call(groupUrl(c.url, 'one'), { method: 'PUT', body: groupBody({ location: 'West Europe' }) });
    expect(first.body.location).toBe('westeurope');
    const shouted = groupUrl(c.url, 'two', 'RG-WEB');
    const second = await call(shouted, { method: 'PUT', body: groupBody() });
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(`/subscriptions/${SUB}/resourceGroups/rg-web/providers/Vendor.ContainerInstance/containerGroups/two`);
    expect((await call(groupUrl(c.url, 'one'))).body.location).toBe('westeurope');
  });

  it('never returns secrets: secure values, keys, passwords, protected settings, secret volume contents', async () => {
    const c = await cloud();
    const body = groupBody(
      {},
      {
        containers: [
          {
            name: 'web',
            properties: {
              image: 'nginx',
              resources: { requests: { cpu: 1, memoryInGB: 1 } },
              environmentVariables: [
                { name: 'A', value: 'plain' },
                { name: 'B', secureValue: 'S3CRET-env' },
              ],
              volumeMounts: [
                { name: 'files', mountPath: '/mnt/files' },
                { name: 'sec', mountPath: '/mnt/sec' },
              ],
            },
          },
        ],
        volumes: [
          { name: 'files', azureFile: { shareName: 's', storageAccountName: 'acct', storageAccountKey: 'S3CRET-key' } },
          { name: 'sec', secret: { 'a.txt': Buffer.from('S3CRET-vol').toString('base64') } },
        ],
        imageRegistryCredentials: [{ server: 'registry.example.net', username: 'u', password: 'S3CRET-pw' }],
        extensions: [{ name: 'kube', properties: { extensionType: 'kube-proxy', version: '1.0', settings: {}, protectedSettings: { k: 'S3CRET-ext' } } }],
        diagnostics: { logAnalytics: { workspaceId: 'w', workspaceKey: 'S3CRET-wk', workspaceResourceId: 'S3CRET-wr' } },
      },
    );
    const put = await call(groupUrl(c.url, 'web'), { method: 'PUT', body });
    expect(put.status).toBe(201);
    for (const res of [put, await call(groupUrl(c.url, 'web')), await call(groupUrl(c.url, 'web').replace('/web?', '?'))]) {
      expect(JSON.stringify(res.body)).not.toMatch(/S3CRET|UzNDUkVU/);
    }
    const g = (await call(groupUrl(c.url, 'web'))).body;
    expect(g.properties.volumes[1].secret).toEqual({});
    expect(g.properties.containers[0].properties.environmentVariables[0]).toEqual({ name: 'A', value: 'plain' });
  });

  it.each([
    ['osType', groupBody({}, { osType: 'Windows' }), 'properties.osType'],
    ['restartPolicy', groupBody({}, { restartPolicy: 'Never' }), 'properties.restartPolicy'],
    ['location', groupBody({ location: 'northeurope' }), 'location'],
    ['zones', groupBody({ zones: ['2'] }), 'zones'],
    [
      'container resources',
      groupBody({}, { containers: [{ name: 'web', properties: { image: 'nginx:1.27', resources: { requests: { cpu: 2, memoryInGB: 1.5 } } } }] }),
      'properties.containers[0].properties.resources',
    ],
  ])('refuses to change %s in place with 409 naming the field', async (_what, body, target) => {
    const c = await cloud();
    expect((await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody() })).status).toBe(201);
    const res = await call(groupUrl(c.url, 'web'), { method: 'PUT', body });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'ContainerGroupUpdateNotAllowed', target });
  });

  it('ignores read-only fields a client sends back from a GET', async () => {
    const c = await cloud();
    const read = (await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody() })).body;
    const echoed = { ...read, id: '/bogus', name: 'other', type: 'x', properties: { ...read.properties, provisioningState: 'Failed' } };
    const res = await call(groupUrl(c.url, 'web'), { method: 'PUT', body: echoed });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: read.id,
      name: 'web',
      type: 'Vendor.ContainerInstance/containerGroups',
      properties: { provisioningState: 'Succeeded' },
    });
  });

  it('treats a server default sent back explicitly as no change', async () => {
    const c = await cloud();
    await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody() });
    const res = await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody({}, { osType: 'Linux', restartPolicy: 'Always' }) });
    expect(res.status).toBe(200);
  });

  it('deletes with 202 and a Location that answers 202 until done, then 204; the group is gone after', async () => {
    const clock = fakeClock();
    const c = await cloud({ provisioningMs: 1000, now: clock.now });
    await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody() });
    const del = await call(groupUrl(c.url, 'web'), { method: 'DELETE' });
    expect(del.status).toBe(202);
    expect(del.headers.get('retry-after')).toBe('1');
    expect(del.headers.get('azure-asyncoperation')).toBeNull();
    const location = del.headers.get('location')!;
    expect(location.startsWith(c.url)).toBe(true);
    expect((await call(location)).status).toBe(202);
    expect((await call(groupUrl(c.url, 'web'))).body.properties.provisioningState).toBe('Deleting');
    clock.advance(1000);
    expect((await call(location)).status).toBe(204);
    const gone = await call(groupUrl(c.url, 'web'));
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('ResourceNotFound');
    expect((await call(groupUrl(c.url, 'web'), { method: 'DELETE' })).status).toBe(204);
  });

  it('lists groups by resource group and by subscription with absolute next links', async () => {
    const c = await cloud();
    for (let i = 0; i < 55; i++) await call(groupUrl(c.url, `g${i}`, i % 2 ? 'rg-a' : 'rg-b'), { method: 'PUT', body: groupBody() });
    const bySub = await call(`${c.url}/subscriptions/${SUB}/providers/Vendor.ContainerInstance/containerGroups?api-version=2026-07-01`);
    expect(bySub.body.value).toHaveLength(50);
    expect(bySub.body.nextLink.startsWith(c.url)).toBe(true);
    expect((await call(bySub.body.nextLink)).body.value).toHaveLength(5);
    const byRg = await call(groupUrl(c.url, '', 'rg-a').replace('/?', '?'));
    expect(byRg.body.value).toHaveLength(27);
    expect(byRg.body.nextLink).toBeUndefined();
  });

  it('lists only the groups of the subscription and resource group asked, whatever their casing, in name order, and forgets deleted ones', async () => {
    const clock = fakeClock();
    const c = await cloud({ provisioningMs: 1000, now: clock.now });
    const other = SUB.replace(/.$/, '2');
    for (const name of ['c', 'a', 'b']) await call(groupUrl(c.url, name, 'RG-Web'), { method: 'PUT', body: groupBody() });
    await call(groupUrl(c.url, 'd', 'rg-other'), { method: 'PUT', body: groupBody() });
    await call(groupUrl(c.url, 'e', 'rg-web', other), { method: 'PUT', body: groupBody() });
    const names = async (url: string) => ((await call(url)).body.value as { name: string }[]).map((g) => g.name);
    const listOf = (rg: string, sub = SUB) => groupUrl(c.url, '', rg, sub).replace('/?', '?');
    expect(await names(listOf('rg-WEB'))).toEqual(['a', 'b', 'c']);
    expect(await names(listOf('rg-web', other))).toEqual(['e']);
    expect(await names(`${c.url}/subscriptions/${SUB}/providers/Vendor.ContainerInstance/containerGroups?api-version=2026-07-01`)).toEqual([
      'd',
      'a',
      'b',
      'c',
    ]);
    await call(groupUrl(c.url, 'b', 'rg-web'), { method: 'DELETE' });
    expect(await names(listOf('rg-web'))).toEqual(['a', 'b', 'c']); // still deleting
    clock.advance(1000);
    await call(groupUrl(c.url, 'b', 'rg-web')); // any request sweeps what finished deleting
    expect(await names(listOf('rg-web'))).toEqual(['a', 'c']);
  });

  it('refuses a create beyond the quota of 100 groups per subscription and location', async () => {
    const c = await cloud();
    for (let i = 0; i < 100; i++) expect((await call(groupUrl(c.url, `g${i}`), { method: 'PUT', body: groupBody() })).status).toBe(201);
    const res = await call(groupUrl(c.url, 'one-more'), { method: 'PUT', body: groupBody() });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ContainerGroupQuotaReached');
    expect((await call(groupUrl(c.url, 'elsewhere'), { method: 'PUT', body: groupBody({ location: 'northeurope' }) })).status).toBe(201);
  });
});
