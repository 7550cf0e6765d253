// The one plan document: rendered plan plus contract; hashes in a saved plan, masks on stdout; rendered back by `moor show`.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/core/json.js';
import type { Manifest } from '../../../src/engine/manifest.js';
import { manifest as testManifest } from '../../../src/engine/testing/fake-kinds.js';
import { isHashed, matchesHash } from '../../../src/engine/secrets.js';
import { renderPlanText } from '../../../src/engine/render/index.js';
import { ContainerGroup } from '../../../src/resources/container-group/index.js';
import { maskHashes, planDocument, planOfDocument, type PlanInputs } from '../../../src/engine/plan/plan-document.js';
import { summarize, type PlannedChange } from '../../../src/engine/plan/types.js';
import type { PlannedStep } from '../../../src/engine/plan/steps.js';
import { forceReplace } from '../../../src/engine/plan/force-replace.js';

const desired: JsonObject = {
  location: 'westeurope',
  properties: { containers: [{ name: 'app', properties: { image: 'nginx:1.28', environmentVariables: [{ name: 'PW', secureValue: 'hunter2' }] } }] },
};
const manifest: Manifest = {
  ...testManifest('ContainerGroup', 'web', {}),
  source: { file: 'm/web.yaml', path: '/m/web.yaml', locate: () => ({ file: 'm/web.yaml', line: 3, col: 3 }) },
};
const change: PlannedChange = {
  address: 'ContainerGroup/web',
  kind: 'ContainerGroup',
  action: 'update',
  drift: false,
  destructive: false,
  fields: [
    {
      path: '/properties/containers/0/properties/image',
      op: 'replace',
      before: 'nginx:1.27',
      after: 'nginx:1.28',
      cause: 'manifest',
      sensitive: false,
      forcesReplace: false,
    },
  ],
  patch: [{ op: 'replace', path: '/properties/containers/0/properties/image', value: 'nginx:1.28' }],
};
const step: PlannedStep = {
  intent: 'update',
  kind: ContainerGroup,
  manifest,
  desired,
  changedPaths: [],
  observed: { id: 'id', spec: desired, outputs: {} },
  change,
};
const material = {
  plan: {
    format: 'moor-plan/1' as const,
    serial: 4,
    changes: [change],
    summary: summarize([change]),
    diagnostics: [{ severity: 'warning' as const, message: 'w', address: 'ContainerGroup/web' }],
  },
  steps: [step],
  manifests: [manifest],
};
const inputs: PlanInputs = { paths: ['m'], targets: [], prune: false, replace: [], refreshOnly: false };
const versions = new Map([['ContainerGroup/web', 'sha256:abc']]);
const secretOf = (doc: JsonObject) =>
  JSON.parse(JSON.stringify(doc)).changes[0].desired.properties.containers[0].properties.environmentVariables[0].secureValue;

describe('planDocument', () => {
  it('keeps the documented fields and adds the contract', () => {
    const doc = planDocument(material, versions, inputs, 'hash');
    expect(doc).toMatchObject({ format: 'moor-plan/1', serial: 4, inputs, summary: { update: 1 } });
    expect(doc.manifestsDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((doc.changes as JsonObject[])[0]).toMatchObject({
      address: 'ContainerGroup/web',
      action: 'update',
      drift: false,
      destructive: false,
      liveVersion: 'sha256:abc',
    });
  });

  it('holds a secret as a salted hash in a saved plan and as (sensitive) on stdout, never its value', () => {
    const saved = planDocument(material, versions, inputs, 'hash');
    expect(isHashed(secretOf(saved))).toBe(true);
    expect(matchesHash('hunter2', secretOf(saved))).toBe(true);
    const printed = planDocument(material, versions, inputs, 'mask');
    expect(secretOf(printed)).toBe('(sensitive)');
    expect(JSON.stringify(saved) + JSON.stringify(printed)).not.toContain('hunter2');
    expect(secretOf(maskHashes(saved) as JsonObject)).toBe('(sensitive)');
  });

  it('renders back as the plan it was made from', () => {
    const doc = JSON.parse(JSON.stringify(planDocument(material, versions, inputs, 'hash')));
    const back = planOfDocument(doc);
    expect(renderPlanText(back, { color: false, mode: 'plan' })).toBe(renderPlanText(material.plan, { color: false, mode: 'plan' }));
  });
});

describe('forceReplace', () => {
  it('turns an update into a replace and counts it', () => {
    const forced = forceReplace(material, ['ContainerGroup/web']);
    expect(forced.plan.changes[0]).toMatchObject({ action: 'replace', reason: 'replace forced by --replace', reasonCode: 'forced-replace' });
    expect(forced.plan.summary).toMatchObject({ update: 0, replace: 1 });
    expect(forced.plan.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('refuses a protected resource and an address the plan does not have', () => {
    const protectedStep = { ...step, manifest: { ...manifest, protect: true } };
    const forced = forceReplace({ ...material, steps: [protectedStep] }, ['ContainerGroup/web']);
    expect(forced.plan.diagnostics.some((d) => d.severity === 'error' && d.message.includes('is protected'))).toBe(true);
    expect(() => forceReplace(material, ['ContainerGroup/nope'])).toThrow('--replace ContainerGroup/nope');
  });
});
