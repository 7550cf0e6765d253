import { describe, expect, test } from 'vitest';
import { createFields, resentFields, shownSpec } from '../../../src/engine/diff/after-values.js';
import { UNKNOWN_SENTINEL } from '../../../src/engine/unknown.js';
import * as group from '../../../src/resources/container-group/diff.js';
import type { JsonObject } from '../../../src/core/json.js';

const desired: JsonObject = {
  subscriptionId: 'sub',
  resourceGroup: 'rg',
  location: 'westeurope',
  properties: {
    containers: [
      {
        name: 'web',
        properties: {
          image: 'nginx:1',
          command: ['sh', '-c'],
          environmentVariables: [
            { name: 'DB', secureValue: 's3cret' },
            { name: 'UP', value: UNKNOWN_SENTINEL },
          ],
        },
      },
    ],
  },
};

describe('a create shows its after-values', () => {
  test('every field it sets, by named path, secrets masked, unknowns marked', () => {
    const fields = createFields(desired, group.diffRules, group.sensitive, 'manifest');
    expect(fields.map((f) => f.path)).toEqual([
      '/subscriptionId',
      '/resourceGroup',
      '/location',
      '/properties/containers[name=web]/properties/image',
      '/properties/containers[name=web]/properties/command',
      '/properties/containers[name=web]/properties/environmentVariables[name=DB]/secureValue',
      '/properties/containers[name=web]/properties/environmentVariables[name=UP]/value',
    ]);
    expect(fields.every((f) => f.op === 'add' && f.cause === 'manifest')).toBe(true);
    expect(fields[4]).toMatchObject({ after: ['sh', '-c'], pointer: '/properties/containers/0/properties/command' });
    expect(fields[5]).toMatchObject({ sensitive: true, after: '(sensitive)' });
    expect(fields[6]).toMatchObject({ unknown: true });
    expect(fields[6]).not.toHaveProperty('after');
    expect(JSON.stringify(fields)).not.toContain('s3cret');
  });

  test('the shown spec masks secrets and marks unknowns as {"unknown": true}', () => {
    const shown = JSON.stringify(shownSpec(desired, group.sensitive));
    expect(shown).not.toContain('s3cret');
    expect(shown).not.toContain(UNKNOWN_SENTINEL);
    expect(shown).toContain('{"name":"UP","value":{"unknown":true}}');
  });

  test('an update names the secrets the whole-body PUT sends again', () => {
    expect(resentFields(desired, group.diffRules, [])).toEqual(['/properties/containers[name=web]/properties/environmentVariables[name=DB]/secureValue']);
  });
});
