import { describe, expect, test } from 'vitest';
import jsonPatch from 'fast-json-patch';
import { diffResource } from '../../../src/engine/diff/three-way.js';
import { patchOf } from '../../../src/engine/diff/patch.js';
import { hashSensitive } from '../../../src/engine/secrets.js';
import { UNKNOWN_SENTINEL } from '../../../src/engine/unknown.js';
import * as group from '../../../src/resources/container-group/diff.js';
import * as auth from '../../../src/resources/auth-context/diff.js';
import * as dataset from '../../../src/resources/push-dataset/diff.js';
import type { JsonObject } from '../../../src/core/json.js';
import { arrayAt, itemsAt, objectAt } from '../../support/json-at.js';

const spec = (extra: JsonObject = {}, props: JsonObject = {}): JsonObject => ({
  subscriptionId: 'sub',
  resourceGroup: 'rg-web',
  location: 'westeurope',
  tags: { team: 'core' },
  properties: { containers: [{ name: 'web', properties: { image: 'nginx:1', environmentVariables: [{ name: 'MODE', value: 'prod' }] } }], ...props },
  ...extra,
});
/** As the service answers: defaults and server fields filled in. */
const served = (s: JsonObject): JsonObject => {
  const live = structuredClone(s);
  Object.assign(objectAt(live, 'properties'), {
    sku: 'Standard',
    restartPolicy: 'Always',
    osType: 'Linux',
    provisioningState: 'Succeeded',
    instanceView: { state: 'Running' },
  });
  for (const c of itemsAt(live, 'properties', 'containers')) objectAt(c, 'properties').instanceView = { restartCount: 0 };
  live.name = 'web';
  return live;
};
const diffGroup = (desired: JsonObject, live: JsonObject, last: JsonObject = desired) =>
  diffResource({ desired, last: hashSensitive(last, group.sensitive), live, rules: group.diffRules, sensitive: group.sensitive });

describe('a whole-body PUT: every live value the write would remove is a change', () => {
  test('a fresh create, as the service answers it, is no change', () => {
    expect(diffGroup(spec(), served(spec()))).toEqual([]);
  });

  test('a tag added out of band is drift that the next write removes', () => {
    const live = served(spec({ tags: { team: 'core', owner: 'alice' } }));
    expect(diffGroup(spec(), live)).toMatchObject([{ op: 'remove', path: '/tags/owner', before: 'alice', cause: 'drift' }]);
  });

  test('without a record (state lost) what live holds beyond the manifest is no drift: there is no last apply it moved from', () => {
    const containers: JsonObject[] = [
      { name: 'web', properties: { image: 'nginx:1', environmentVariables: [{ name: 'MODE', value: 'prod' }] } },
      { name: 'sidecar', properties: { image: 'busybox' } },
    ];
    const live = served(spec({ tags: { team: 'core', owner: 'alice' } }, { containers }));
    const changes = diffResource({ desired: spec(), last: undefined, live, rules: group.diffRules, sensitive: group.sensitive });
    expect(changes.map((c) => c.path)).toEqual(expect.arrayContaining(['/tags/owner', '/properties/containers[name=sidecar]']));
    expect(changes.every((c) => c.cause === 'manifest')).toBe(true);
  });

  test('tags added out of band to a group without tags are one removal of /tags', () => {
    const desired = spec({ tags: undefined as unknown as JsonObject });
    delete desired.tags;
    expect(diffGroup(desired, served(spec({ tags: { owner: 'alice' } })))).toMatchObject([
      { op: 'remove', path: '/tags', before: { owner: 'alice' }, cause: 'drift' },
    ]);
  });

  test('an environment variable added out of band is named by its element', () => {
    const live = served(spec());
    arrayAt(live, 'properties', 'containers', 0, 'properties', 'environmentVariables').push({ name: 'DEBUG', value: '1' });
    const changes = diffGroup(spec(), live);
    expect(changes).toMatchObject([{ op: 'remove', path: '/properties/containers[name=web]/properties/environmentVariables[name=DEBUG]', cause: 'drift' }]);
    expect(patchOf(changes)).toEqual([{ op: 'remove', path: '/properties/containers/0/properties/environmentVariables/1' }]);
  });

  test('the patch is valid RFC 6902: applied to live it gives what the write sends', () => {
    const live = served(spec({ tags: { team: 'core', owner: 'alice' } }));
    arrayAt(live, 'properties', 'containers', 0, 'properties', 'environmentVariables').unshift({ name: 'DEBUG', value: '1' });
    objectAt(live, 'properties', 'containers', 0, 'properties').image = 'evil:1';
    const desired = spec({}, { volumes: [{ name: 'v', emptyDir: {} }] });
    const patched = jsonPatch.applyPatch(structuredClone(live), patchOf(diffGroup(desired, live)) as jsonPatch.Operation[], true).newDocument;
    expect(patched.tags).toEqual(desired.tags);
    expect(objectAt(patched, 'properties', 'containers', 0, 'properties').environmentVariables).toEqual([{ name: 'MODE', value: 'prod' }]);
    expect(objectAt(patched, 'properties', 'containers', 0, 'properties').image).toBe('nginx:1');
    expect(objectAt(patched, 'properties').volumes).toEqual([{ name: 'v', emptyDir: {} }]);
  });

  test('a defaulted field stays quiet at its default, and is a change at another value', () => {
    const live = served(spec());
    expect(diffGroup(spec(), live)).toEqual([]);
    (live.properties as JsonObject).sku = 'Confidential';
    expect(diffGroup(spec(), live)).toMatchObject([{ op: 'remove', path: '/properties/sku', before: 'Confidential', cause: 'drift' }]);
  });

  test('defaults the real service answers inside named elements stay quiet (port protocol)', () => {
    const desired = spec({}, { ipAddress: { type: 'Public', ports: [{ port: 80 }] } });
    const live = served(desired);
    objectAt(live, 'properties', 'ipAddress', 'ports', 0).protocol = 'TCP';
    objectAt(live, 'properties', 'ipAddress').autoGeneratedDomainNameLabelScope = 'Unsecure';
    expect(diffGroup(desired, live)).toEqual([]);
    objectAt(live, 'properties', 'ipAddress', 'ports', 0).protocol = 'UDP';
    expect(diffGroup(desired, live)).toMatchObject([{ op: 'remove', path: '/properties/ipAddress/ports[port=80]/protocol', cause: 'drift' }]);
  });

  test('server-filled fields under a sent subtree stay quiet (ip, fqdn, identity ids)', () => {
    const live = served(spec());
    objectAt(live, 'properties').ipAddress = { ip: '10.0.0.1', fqdn: 'x.example' };
    live.identity = { type: 'None' };
    expect(diffGroup(spec(), live)).toEqual([]);
  });

  test('an AuthContext (PATCH of changed properties) leaves a property the manifest never set alone', () => {
    const changes = diffResource({
      desired: { id: 'c1', displayName: 'A' },
      last: { id: 'c1', displayName: 'A' },
      live: { id: 'c1', displayName: 'A', description: 'set by hand' },
      rules: auth.diffRules,
      sensitive: auth.sensitive,
    });
    expect(changes).toEqual([]);
  });

  test('a PushDataset table PUT replaces columns whole: a column property added out of band is a removal', () => {
    const desired: JsonObject = { workspaceId: 'w', name: 'd', tables: [{ name: 'T', columns: [{ name: 'A', dataType: 'Int64' }] }] };
    const live: JsonObject = { workspaceId: 'w', name: 'd', tables: [{ name: 'T', columns: [{ name: 'A', dataType: 'Int64', formatString: '0.0' }] }] };
    const changes = diffResource({ desired, last: desired, live, rules: dataset.diffRules, sensitive: dataset.sensitive });
    expect(changes).toMatchObject([{ op: 'remove', path: '/tables[name=T]/columns[name=A]/formatString', cause: 'drift', forcesReplace: false }]);
  });

  test('a PushDataset table source, which GET never returns, is no change after a create', () => {
    const desired: JsonObject = {
      workspaceId: 'w',
      name: 'd',
      tables: [{ name: 'T', columns: [{ name: 'A', dataType: 'Int64' }], source: [{ expression: 'let S = 1 in S' }] }],
    };
    const live: JsonObject = { workspaceId: 'w', name: 'd', tables: [{ name: 'T', columns: [{ name: 'A', dataType: 'Int64' }], measures: [] }] };
    expect(diffResource({ desired, last: desired, live, rules: dataset.diffRules, sensitive: dataset.sensitive })).toEqual([]);
  });
});

describe('ARM normalisation', () => {
  test('a location spelled "West Europe" matches the canonical "westeurope" ARM answers', () => {
    expect(diffGroup(spec({ location: 'West Europe' }), served(spec()))).toEqual([]);
  });

  test('a different region is still a replace', () => {
    expect(diffGroup(spec({ location: 'North Europe' }), served(spec()))).toMatchObject([{ path: '/location', forcesReplace: true }]);
  });

  test('resource group names and subnet ids compare ignoring case', () => {
    const subnet = '/subscriptions/sub/resourceGroups/Net/providers/Vendor.Network/virtualNetworks/v/subnets/s';
    const desired = spec({ resourceGroup: 'RG-Web' }, { subnetIds: [{ id: subnet }] });
    const live = served(spec({}, { subnetIds: [{ id: subnet.toLowerCase() }] }));
    expect(diffGroup(desired, live)).toEqual([]);
  });

  test('user-assigned identity keys compare ignoring case (ARM answers resourcegroups in lower case)', () => {
    const id = '/subscriptions/sub/resourceGroups/Ids/providers/Vendor.ManagedIdentity/userAssignedIdentities/app';
    const desired = spec({ identity: { type: 'UserAssigned', userAssignedIdentities: { [id]: {} } } });
    const live = served(
      spec({
        identity: {
          type: 'UserAssigned',
          tenantId: 't',
          userAssignedIdentities: { [id.replace('resourceGroups', 'resourcegroups')]: { clientId: 'c', principalId: 'p' } },
        },
      }),
    );
    expect(diffGroup(desired, live)).toEqual([]);
  });
});

describe('unknown values', () => {
  test('a value known only after apply is a change marked unknown, never a string value', () => {
    const desired = spec({ tags: { team: 'core', upstream: `http://${UNKNOWN_SENTINEL}/x` } });
    const changes = diffGroup(desired, served(spec()), spec());
    expect(changes).toEqual([expect.objectContaining({ op: 'add', path: '/tags/upstream', unknown: true })]);
    expect(changes[0]).not.toHaveProperty('after');
    expect(patchOf(changes)).toEqual([{ op: 'add', path: '/tags/upstream', unknown: true }]);
  });
});
