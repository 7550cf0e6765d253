// Container group requests break ARM's container-group rules: 400 CloudError with a code and the faulty property as target.
import { describe, expect, it } from 'vitest';
import { call, cloud, groupBody, groupUrl, SUB } from './helpers.js';

const container = (props: Record<string, unknown>) => ({
  name: 'web',
  properties: { image: 'nginx', resources: { requests: { cpu: 1, memoryInGB: 1 } }, ...props },
});
const uai = `/subscriptions/${SUB}/resourceGroups/rg/providers/Vendor.ManagedIdentity/userAssignedIdentities/app`;

describe('container group validation', () => {
  it('requires the api-version', async () => {
    const c = await cloud();
    const res = await call(groupUrl(c.url, 'web').replace('?api-version=2026-07-01', ''), { method: 'PUT', body: groupBody() });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('MissingApiVersionParameter');
  });

  it.each([
    ['a subscription id that is not a UUID', groupUrl('BASE', 'web', 'rg', 'not-a-uuid'), groupBody(), 'InvalidSubscriptionId', 'subscriptionId'],
    ['a resource group longer than 90 characters', groupUrl('BASE', 'web', 'r'.repeat(91)), groupBody(), 'InvalidResourceGroupName', 'resourceGroupName'],
    ['no containers', groupUrl('BASE', 'web'), { location: 'westeurope', properties: {} }, 'InvalidRequestContent', 'properties.containers'],
    [
      'a container without image',
      groupUrl('BASE', 'web'),
      groupBody({}, { containers: [{ name: 'web', properties: { resources: { requests: { cpu: 1, memoryInGB: 1 } } } }] }),
      'InvalidRequestContent',
      'properties.containers[0].properties.image',
    ],
    [
      'a container without a cpu request',
      groupUrl('BASE', 'web'),
      groupBody({}, { containers: [{ name: 'web', properties: { image: 'x', resources: { requests: { memoryInGB: 1 } } } }] }),
      'InvalidRequestContent',
      'properties.containers[0].properties.resources.requests.cpu',
    ],
    [
      'a container without a name',
      groupUrl('BASE', 'web'),
      groupBody({}, { containers: [{ properties: { image: 'x', resources: { requests: { cpu: 1, memoryInGB: 1 } } } }] }),
      'InvalidRequestContent',
      'properties.containers[0].name',
    ],
    [
      'a mount path with a colon',
      groupUrl('BASE', 'web'),
      groupBody({}, { volumes: [{ name: 'v', emptyDir: {} }], containers: [container({ volumeMounts: [{ name: 'v', mountPath: 'C:/data' }] })] }),
      'InvalidVolumeMountPath',
      'properties.containers[0].properties.volumeMounts[0].mountPath',
    ],
    [
      'a mount of an unknown volume',
      groupUrl('BASE', 'web'),
      groupBody({}, { containers: [container({ volumeMounts: [{ name: 'nope', mountPath: '/x' }] })] }),
      'InvalidVolumeMount',
      'properties.containers[0].properties.volumeMounts[0].name',
    ],
    [
      'a volume with two kinds',
      groupUrl('BASE', 'web'),
      groupBody({}, { volumes: [{ name: 'v', emptyDir: {}, gitRepo: { repository: 'https://x' } }] }),
      'InvalidVolumeKind',
      'properties.volumes[0]',
    ],
    ['a volume with no kind', groupUrl('BASE', 'web'), groupBody({}, { volumes: [{ name: 'v' }] }), 'InvalidVolumeKind', 'properties.volumes[0]'],
    [
      'a gitRepo directory with ..',
      groupUrl('BASE', 'web'),
      groupBody({}, { volumes: [{ name: 'v', gitRepo: { repository: 'https://x', directory: '../up' } }] }),
      'InvalidGitRepoDirectory',
      'properties.volumes[0].gitRepo.directory',
    ],
    [
      'a secureValueReference to no secret reference',
      groupUrl('BASE', 'web'),
      groupBody({}, { containers: [container({ environmentVariables: [{ name: 'A', secureValueReference: 'missing' }] })] }),
      'InvalidSecretReference',
      'properties.containers[0].properties.environmentVariables[0].secureValueReference',
    ],
    [
      'a secret reference whose identity is not assigned',
      groupUrl('BASE', 'web'),
      groupBody({}, { secretReferences: [{ name: 's', identity: uai, secretReferenceUri: 'https://kv/secrets/s' }] }),
      'InvalidSecretReferenceIdentity',
      'properties.secretReferences[0].identity',
    ],
    ['an unknown osType', groupUrl('BASE', 'web'), groupBody({}, { osType: 'Plan9' }), 'InvalidRequestContent', 'properties.osType'],
    ['a value of an open list that is not a string', groupUrl('BASE', 'web'), groupBody({}, { sku: ['Standard'] }), 'InvalidRequestContent', 'properties.sku'],
  ])('refuses %s', async (_reason, url, body, code, target) => {
    const c = await cloud();
    const res = await call(url.replace('BASE', c.url), { method: 'PUT', body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code, target });
  });

  it('accepts references that name defined secret references of an assigned identity', async () => {
    const c = await cloud();
    const body = groupBody(
      { identity: { type: 'UserAssigned', userAssignedIdentities: { [uai]: {} } } },
      {
        secretReferences: [{ name: 'db', identity: uai, secretReferenceUri: 'https://kv.example.net/secrets/db' }],
        volumes: [{ name: 'cfg', secretReference: { 'pw.txt': 'db' } }],
        containers: [container({ environmentVariables: [{ name: 'PW', secureValueReference: 'db' }], volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg' }] })],
        imageRegistryCredentials: [{ server: 'registry.example.net', username: 'u', passwordReference: 'db' }],
      },
    );
    const res = await call(groupUrl(c.url, 'web'), { method: 'PUT', body });
    expect(res.body.error).toBeUndefined();
    expect(res.status).toBe(201);
  });

  it('accepts values of open lists it does not know (the seed shows only the values that occur)', async () => {
    const c = await cloud();
    const ipAddress = { type: 'Internal', ports: [{ port: 80, protocol: 'SCTP' }], autoGeneratedDomainNameLabelScope: 'Noreuse' };
    const res = await call(groupUrl(c.url, 'web'), {
      method: 'PUT',
      body: groupBody({}, { sku: 'NotSpecified', priority: 'Low', restartPolicy: 'Sometimes', ipAddress }),
    });
    expect(res.body.error).toBeUndefined();
    expect(res.body.properties).toMatchObject({
      sku: 'NotSpecified',
      priority: 'Low',
      restartPolicy: 'Sometimes',
      ipAddress: { type: 'Internal', autoGeneratedDomainNameLabelScope: 'Noreuse' },
    });
  });

  it('lists every problem in details when there are several', async () => {
    const c = await cloud();
    const res = await call(groupUrl(c.url, 'web'), { method: 'PUT', body: groupBody({}, { osType: 'Plan9', restartPolicy: 42 }) });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { target: string }) => d.target)).toEqual(['properties.osType', 'properties.restartPolicy']);
  });
});
