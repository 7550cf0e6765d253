import { describe, expect, test } from 'vitest';
import { diffResource } from '../../../src/engine/diff/three-way.js';
import { hashSensitive } from '../../../src/engine/secrets.js';
import { diffRules, sensitive } from '../../../src/resources/container-group/diff.js';
import type { JsonObject } from '../../../src/core/json.js';
import { arrayAt, itemsAt, objectAt } from '../../support/json-at.js';

const group = (image: string, extra: JsonObject = {}): JsonObject => ({
  subscriptionId: 'sub',
  resourceGroup: 'rg',
  name: 'web',
  location: 'westeurope',
  properties: {
    containers: [
      {
        name: 'web',
        properties: { image, resources: { requests: { cpu: 1, memoryInGB: 1.5 } }, environmentVariables: [{ name: 'DB', secureValue: 's3cret' }] },
      },
    ],
    ...extra,
  },
});
const liveOf = (spec: JsonObject): JsonObject => {
  const copy = structuredClone(spec);
  const props = objectAt(copy, 'properties');
  props.provisioningState = 'Succeeded';
  props.sku = 'Standard';
  for (const c of itemsAt(props, 'containers')) for (const e of itemsAt(c, 'properties', 'environmentVariables')) delete e.secureValue;
  return copy;
};
const diff = (desired: JsonObject, last: JsonObject | undefined, live: JsonObject) =>
  diffResource({ desired, last: last && hashSensitive(last, sensitive), live, rules: diffRules, sensitive });

describe('three-way diff of a container group', () => {
  test('an unchanged group with hidden secrets and server-filled fields is no change', () => {
    expect(diff(group('nginx:1'), group('nginx:1'), liveOf(group('nginx:1')))).toEqual([]);
  });

  test('a manifest edit is labelled manifest and points at the field', () => {
    const changes = diff(group('nginx:2'), group('nginx:1'), liveOf(group('nginx:1')));
    expect(changes).toMatchObject([
      {
        path: '/properties/containers[name=web]/properties/image',
        pointer: '/properties/containers/0/properties/image',
        op: 'replace',
        before: 'nginx:1',
        after: 'nginx:2',
        cause: 'manifest',
        forcesReplace: false,
      },
    ]);
  });

  test('an out-of-band change is labelled drift', () => {
    const changes = diff(group('nginx:1'), group('nginx:1'), liveOf(group('evil:1')));
    expect(changes).toMatchObject([{ path: '/properties/containers[name=web]/properties/image', cause: 'drift', before: 'evil:1', after: 'nginx:1' }]);
  });

  test('a changed secret is found by hash and never shown', () => {
    const desired = group('nginx:1');
    objectAt(desired, 'properties', 'containers', 0, 'properties', 'environmentVariables', 0).secureValue = 'other';
    const changes = diff(desired, group('nginx:1'), liveOf(group('nginx:1')));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ sensitive: true, before: '(sensitive)', after: '(sensitive)' });
    expect(JSON.stringify(changes)).not.toContain('other');
  });

  test('container resources force a replace', () => {
    const desired = group('nginx:1');
    objectAt(desired, 'properties', 'containers', 0, 'properties', 'resources', 'requests').cpu = 2;
    const changes = diff(desired, group('nginx:1'), liveOf(group('nginx:1')));
    expect(changes).toMatchObject([{ path: '/properties/containers[name=web]/properties/resources/requests/cpu', forcesReplace: true }]);
  });

  test('containers compare by name, not position', () => {
    const two = (order: string[]): JsonObject => ({ ...group('x'), properties: { containers: order.map((n) => ({ name: n, properties: { image: n } })) } });
    expect(diff(two(['a', 'b']), two(['a', 'b']), liveOf(two(['b', 'a'])))).toEqual([]);
  });

  test('a field the manifest never set is never a change', () => {
    const live = liveOf(group('nginx:1'));
    objectAt(live, 'properties').restartPolicy = 'Always';
    objectAt(live, 'properties').ipAddress = { ip: '10.0.0.1' };
    expect(diff(group('nginx:1'), group('nginx:1'), live)).toEqual([]);
  });

  // Changed on purpose (issue 9): a whole-body PUT removes what the manifest lacks, so a value moor
  // never set is no longer ignored; it is a removal caused by drift.
  test('a field dropped from the manifest is removed: a manifest change if moor set it, drift otherwise', () => {
    const withTags = { ...group('nginx:1'), tags: { team: 'a' } };
    const live = liveOf(withTags);
    expect(diff(group('nginx:1'), withTags, live)).toMatchObject([{ op: 'remove', path: '/tags', cause: 'manifest' }]);
    expect(diff(group('nginx:1'), group('nginx:1'), live)).toMatchObject([{ op: 'remove', path: '/tags', before: { team: 'a' }, cause: 'drift' }]);
  });

  test('an added container with a secret masks the secret in the new element', () => {
    const desired = group('nginx:1');
    arrayAt(desired, 'properties', 'containers').push({
      name: 'side',
      properties: { image: 'busybox', environmentVariables: [{ name: 'K', secureValue: 'hidden-value' }] },
    });
    const changes = diff(desired, group('nginx:1'), liveOf(group('nginx:1')));
    expect(changes).toMatchObject([{ op: 'add', path: '/properties/containers[name=side]', pointer: '/properties/containers/-', cause: 'manifest' }]);
    expect(JSON.stringify(changes)).not.toContain('hidden-value');
  });
});
