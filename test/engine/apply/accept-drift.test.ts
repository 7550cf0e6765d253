// apply --refresh-only: drift accepted into state makes the next comparison quiet, secrets kept as hashes.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/core/json.js';
import { hashSensitive, isHashed } from '../../../src/engine/secrets.js';
import { diffResource } from '../../../src/engine/diff/three-way.js';
import { ContainerGroup } from '../../../src/resources/container-group/index.js';
import type { StateRecorder } from '../../../src/engine/state/recorder.js';
import type { ResourceRecord } from '../../../src/engine/state/types.js';
import { refusedStep, type PlannedStep } from '../../../src/engine/plan/steps.js';
import { manifest as testManifest } from '../../../src/engine/testing/fake-kinds.js';
import { acceptDrift } from '../../../src/engine/apply/accept-drift.js';

function spec(image: string, extra: JsonObject = {}): JsonObject {
  return {
    subscriptionId: 's',
    resourceGroup: 'rg',
    name: 'web',
    location: 'westeurope',
    properties: {
      osType: 'Linux',
      containers: [
        {
          name: 'app',
          properties: {
            image,
            environmentVariables: [
              { name: 'PW', secureValue: 'pw' },
              { name: 'MODE', value: 'prod' },
            ],
          },
        },
      ],
      ...extra,
    },
  };
}

/** What the service answers: secrets hidden, server fields filled in, env vars in another order. */
function live(image: string): JsonObject {
  return {
    subscriptionId: 's',
    resourceGroup: 'rg',
    name: 'web',
    location: 'westeurope',
    properties: {
      osType: 'Linux',
      provisioningState: 'Succeeded',
      sku: 'Standard',
      containers: [{ name: 'app', properties: { image, environmentVariables: [{ name: 'MODE', value: 'prod' }, { name: 'PW' }] } }],
    },
  };
}

function fakeRecorder(): { recorder: StateRecorder; records: Record<string, ResourceRecord | undefined> } {
  const records: Record<string, ResourceRecord | undefined> = {};
  // Only put/remove/flush are used by acceptDrift.
  const recorder = {
    put: async (a: string, r: ResourceRecord) => {
      records[a] = r;
    },
    remove: async (a: string) => {
      records[a] = undefined;
    },
    flush: async () => undefined,
  } as unknown as StateRecorder;
  return { recorder, records };
}

describe('acceptDrift', () => {
  const desired = spec('nginx:1.27');
  const record: ResourceRecord = {
    kind: 'ContainerGroup',
    name: 'web',
    id: 'id',
    lastApplied: hashSensitive(desired, ContainerGroup.sensitive),
    updatedAt: 'then',
  };
  const change = { address: 'ContainerGroup/web', kind: 'ContainerGroup', action: 'update' as const, fields: [], patch: [], drift: true, destructive: false };
  // No placeholders: the kind's own secrets are all there is to protect.
  const manifest = testManifest('ContainerGroup', 'web', {});

  it('records live as last applied, so drift is quiet and restoring the manifest is a manifest change', async () => {
    const observed = { id: 'id', spec: live('nginx:tampered'), outputs: { image: 'nginx:tampered' } };
    const step: PlannedStep = { intent: 'update', kind: ContainerGroup, manifest, record, observed, desired, changedPaths: [], change };
    const { recorder, records } = fakeRecorder();
    const outcomes = await acceptDrift(
      { format: 'moor-plan/1', serial: 1, changes: [change], summary: { create: 0, update: 1, replace: 0, delete: 0, run: 0, noop: 0 }, diagnostics: [] },
      [step],
      recorder,
    );
    expect(outcomes).toEqual([{ address: 'ContainerGroup/web', action: 'refresh', status: 'done' }]);
    const last = records['ContainerGroup/web']!.lastApplied;
    const fields = diffResource({ desired, last, live: observed.spec, rules: ContainerGroup.diff, sensitive: ContainerGroup.sensitive });
    expect(fields.filter((f) => f.cause === 'drift')).toEqual([]);
    expect(fields.map((f) => [f.pointer, f.cause])).toEqual([['/properties/containers/0/properties/image', 'manifest']]);
    // The secret stays as the hash of what was applied; a field moor never set is not adopted.
    const env = ((last.properties as JsonObject).containers as JsonObject[])[0].properties as JsonObject;
    expect((env.environmentVariables as JsonObject[]).some((e) => isHashed(e.secureValue))).toBe(true);
    expect(last.properties).not.toHaveProperty('sku');
    expect(last.properties).not.toHaveProperty('provisioningState');
    expect(JSON.stringify(records)).not.toContain('"pw"');
  });

  it('accepts a value added out of band that the next whole PUT would remove', async () => {
    const observed = { id: 'id', spec: { ...live('nginx:1.27'), tags: { owner: 'alice' } }, outputs: {} };
    const before = diffResource({ desired, last: record.lastApplied, live: observed.spec, rules: ContainerGroup.diff, sensitive: ContainerGroup.sensitive });
    expect(before.filter((f) => f.cause === 'drift').length).toBeGreaterThan(0);
    const step: PlannedStep = { intent: 'update', kind: ContainerGroup, manifest, record, observed, desired, changedPaths: [], change };
    const { recorder, records } = fakeRecorder();
    await acceptDrift(
      { format: 'moor-plan/1', serial: 1, changes: [change], summary: { create: 0, update: 1, replace: 0, delete: 0, run: 0, noop: 0 }, diagnostics: [] },
      [step],
      recorder,
    );
    const after = diffResource({
      desired,
      last: records['ContainerGroup/web']!.lastApplied,
      live: observed.spec,
      rules: ContainerGroup.diff,
      sensitive: ContainerGroup.sensitive,
    });
    expect(after.filter((f) => f.cause === 'drift')).toEqual([]);
    expect(after.map((f) => [f.op, f.cause])).toEqual([['remove', 'manifest']]);
  });

  it('forgets a resource deleted outside moor, and fails a refused one', async () => {
    const gone: PlannedStep = { intent: 'create', kind: ContainerGroup, manifest, record, desired, change: { ...change, action: 'create' } };
    const refused = refusedStep(
      { ...gone, observed: { id: 'id', spec: live('x'), outputs: {} } },
      { ...change, address: 'ContainerGroup/api' },
      'ContainerGroup/api: refused: the live resource changed since the plan',
    );
    const { recorder, records } = fakeRecorder();
    const plan = {
      format: 'moor-plan/1' as const,
      serial: 1,
      changes: [gone.change, refused.change],
      summary: { create: 1, update: 1, replace: 0, delete: 0, run: 0, noop: 0 },
      diagnostics: [],
    };
    const outcomes = await acceptDrift(plan, [gone, refused], recorder);
    expect(outcomes.map((o) => [o.address, o.action, o.status])).toEqual([
      ['ContainerGroup/web', 'forget', 'done'],
      ['ContainerGroup/api', 'refresh', 'failed'],
    ]);
    expect('ContainerGroup/web' in records && records['ContainerGroup/web'] === undefined).toBe(true);
    expect(records['ContainerGroup/api']).toBeUndefined();
  });
});
