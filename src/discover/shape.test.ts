import { describe, expect, test } from 'vitest';
import type { ResourceKind } from '../core/kind.js';
import { namedFieldPath, shapeSpec } from './shape.js';

const kind = {
  kind: 'Thing',
  category: 'resource',
  description: 'a test kind',
  sensitive: ['properties/items/*/secret'],
  specSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      name: { type: 'string' },
      location: { type: 'string' },
      properties: {
        type: 'object',
        additionalProperties: false,
        required: ['items'],
        properties: {
          items: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              properties: { name: { type: 'string' }, secret: { type: 'string' }, protocol: { type: 'string' } },
            },
          },
          extras: { type: 'array', items: { type: 'string' } },
          sku: { type: 'string' },
        },
      },
    },
  },
  diff: {
    serverPopulated: ['id', 'properties/state'],
    writeOnly: ['properties/items/*/secret'],
    immutable: [],
    arrayKeys: { 'properties/items': 'name' },
    writes: { summary: 'PUT', whole: ['properties'] },
    defaults: { 'properties/sku': 'Standard', 'properties/items/*/protocol': 'TCP' },
  },
  resource: { nameField: 'name' },
} as unknown as ResourceKind;

describe('the spec discover writes', () => {
  const live = {
    id: '/things/web',
    properties: { state: 'Running', sku: 'standard', newField: 1, extras: [], items: [{ protocol: 'TCP', name: 'a' }] },
    location: 'westeurope',
    name: 'web',
  };

  test('drops service-filled fields, defaults, empty lists and the name that repeats metadata.name; schema order', () => {
    const shaped = shapeSpec(
      kind,
      { spec: live, secrets: [{ path: ['properties', 'items', 0, 'secret'], words: ['web', 'a'] }], unwritten: [] },
      'web',
      () => '${env:WEB_A}',
    );
    expect(shaped.spec).toEqual({ location: 'westeurope', properties: { items: [{ name: 'a', secret: '${env:WEB_A}' }] } });
    expect(JSON.stringify(shaped.spec)).toBe('{"location":"westeurope","properties":{"items":[{"name":"a","secret":"${env:WEB_A}"}]}}');
  });

  test('a field the schema does not know is said, never dropped silently; the name stays when it differs', () => {
    const shaped = shapeSpec(kind, { spec: live, secrets: [], unwritten: [{ path: ['x'], reason: 'the kind says' }] }, 'web-rg-blue', () => '');
    expect(shaped.spec.name).toBe('web');
    expect(shaped.unwritten.map((u) => u.path.join('/'))).toEqual(['x', 'properties/newField']);
    expect(shaped.unwritten[1].reason).toContain('schema does not know');
  });

  test('paths name list elements by their names', () => {
    expect(namedFieldPath(live, ['properties', 'items', 0, 'secret'])).toBe('spec.properties.items[name=a].secret');
  });
});
