// Golden renderings of plans the diff itself computed from a spec and a live resource: a create's
// after-values and an update that removes what was added out of band, in text, JSON and markdown.
import { describe, expect, it } from 'vitest';
import { renderPlanJson, renderPlanMarkdown, renderPlanText } from '../../src/engine/render/index.js';
import { createFields, resentFields, shownSpec } from '../../src/engine/diff/after-values.js';
import { diffResource } from '../../src/engine/diff/three-way.js';
import { patchOf } from '../../src/engine/diff/patch.js';
import { hashSensitive } from '../../src/engine/secrets.js';
import { UNKNOWN_SENTINEL } from '../../src/engine/unknown.js';
import { summarize, type Plan, type PlannedChange } from '../../src/engine/plan/types.js';
import { diffRules, sensitive } from '../../src/resources/container-group/diff.js';
import type { JsonObject } from '../../src/core/json.js';
import { objectAt } from '../support/json-at.js';

const SECRET = 'golden-s3cret';

const spec = (name: string): JsonObject => ({
  subscriptionId: '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11',
  resourceGroup: 'rg-web',
  name,
  location: 'West Europe',
  tags: { team: 'core' },
  properties: {
    osType: 'Linux',
    containers: [
      {
        name: 'app',
        properties: {
          image: 'nginx:1.27',
          resources: { requests: { cpu: 1, memoryInGB: 1.5 } },
          ports: [{ port: 80 }],
          environmentVariables: [
            { name: 'DB_PASSWORD', secureValue: SECRET },
            { name: 'DATASET_ID', value: UNKNOWN_SENTINEL },
          ],
        },
      },
    ],
  },
});

function createChange(name: string): PlannedChange {
  const desired = spec(name);
  const after = shownSpec(desired, sensitive);
  return {
    address: `ContainerGroup/${name}`,
    kind: 'ContainerGroup',
    action: 'create',
    drift: false,
    destructive: false,
    fields: createFields(desired, diffRules, sensitive, 'manifest'),
    after,
    patch: [{ op: 'add', path: '', value: after }],
  };
}

function updateChange(): PlannedChange {
  const desired = spec('api');
  objectAt(desired, 'properties', 'containers', 0, 'properties', 'environmentVariables', 1).value = 'ds-1';
  const live = structuredClone(desired); // as the service answers it, after an out-of-band PUT
  live.location = 'westeurope';
  objectAt(live, 'tags').owner = 'alice';
  objectAt(live, 'properties').sku = 'Standard';
  objectAt(live, 'properties', 'containers', 0, 'properties').image = 'nginx:1.25';
  objectAt(live, 'properties', 'containers', 0, 'properties').environmentVariables = [
    { name: 'DB_PASSWORD' },
    { name: 'DATASET_ID', value: 'ds-1' },
    { name: 'DEBUG', value: '1' },
  ];
  const fields = diffResource({ desired, last: hashSensitive(desired, sensitive), live, rules: diffRules, sensitive }).map(({ desiredPath: _d, ...f }) => f);
  return {
    address: 'ContainerGroup/api',
    kind: 'ContainerGroup',
    action: 'update',
    drift: true,
    destructive: false,
    fields,
    patch: patchOf(fields),
    resent: resentFields(desired, diffRules, fields),
  };
}

const changes = [createChange('web'), updateChange()];
const plan: Plan = { format: 'moor-plan/1', serial: 4, changes, summary: summarize(changes), diagnostics: [] };

describe('plans computed by the diff', () => {
  it('render as text', async () => {
    await expect(renderPlanText(plan, { color: false, mode: 'plan' })).toMatchFileSnapshot('golden/diffed-plan.txt');
  });

  it('render as JSON', async () => {
    await expect(renderPlanJson(plan)).toMatchFileSnapshot('golden/diffed-plan.json');
  });

  it('render as markdown, and as a drift report', async () => {
    await expect(renderPlanMarkdown(plan, { mode: 'plan' })).toMatchFileSnapshot('golden/diffed-plan.md');
    await expect(renderPlanText(plan, { color: false, mode: 'drift' })).toMatchFileSnapshot('golden/diffed-drift.txt');
  });

  it('never show the secret, the unknown sentinel, or a quoted unknown', () => {
    for (const text of [renderPlanText(plan, { color: false, mode: 'plan' }), renderPlanJson(plan), renderPlanMarkdown(plan, { mode: 'plan' })]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(UNKNOWN_SENTINEL);
      expect(text).not.toContain('"(known after apply)"');
    }
  });
});
