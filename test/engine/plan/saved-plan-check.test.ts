// Holding a fresh plan to a saved one: bodies compared with secrets by hash, live versions, actions.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/core/json.js';
import { hashSensitive } from '../../../src/engine/secrets.js';
import { ContainerGroup } from '../../../src/resources/container-group/index.js';
import type { Observed } from '../../../src/core/kind.js';
import { bodyDifference, holdToSavedPlan } from '../../../src/engine/plan/saved-plan-check.js';
import { liveVersion } from '../../../src/engine/plan/live-version.js';
import { refusalOf, type PlannedStep } from '../../../src/engine/plan/steps.js';
import { manifest as testManifest } from '../../../src/engine/testing/fake-kinds.js';

const SECRET_PATH = '/properties/containers/0/properties/environmentVariables/0/secureValue';

function body(image: string, secret = 's3cret'): JsonObject {
  return {
    location: 'westeurope',
    properties: { containers: [{ name: 'app', properties: { image, environmentVariables: [{ name: 'PW', secureValue: secret }] } }] },
  };
}
const reviewed = hashSensitive(body('nginx:1.28'), ContainerGroup.sensitive);

const manifest = testManifest('ContainerGroup', 'web', {});
const observed: Observed = { id: 'id', spec: body('nginx:1.27'), outputs: {} };

function step(action: 'create' | 'update' | 'replace' | 'no-op', desired = body('nginx:1.28')): PlannedStep {
  const change = { address: 'ContainerGroup/web', kind: 'ContainerGroup', action, fields: [], patch: [], drift: false, destructive: false };
  const facts = { kind: ContainerGroup, manifest, desired, change };
  if (action === 'update') return { ...facts, intent: action, observed, changedPaths: [] };
  if (action === 'replace') return { ...facts, intent: action, observed };
  return { ...facts, intent: action };
}

describe('bodyDifference', () => {
  it('finds nothing when the resolved body is the reviewed one, its secret matching the hash', () => {
    expect(bodyDifference(reviewed, body('nginx:1.28'), ContainerGroup.sensitive)).toBeUndefined();
  });

  it('names a changed value', () => {
    expect(bodyDifference(reviewed, body('evil.example.net/miner:latest'), ContainerGroup.sensitive)).toContain('/properties/containers/0/properties/image');
  });

  it('names a field added since the review', () => {
    expect(bodyDifference(reviewed, { ...body('nginx:1.28'), tags: { a: 'b' } }, ContainerGroup.sensitive)).toContain('/tags');
  });

  it('refuses a secret whose hash differs, naming its path but never its value', () => {
    const why = bodyDifference(reviewed, body('nginx:1.28', 'other'), ContainerGroup.sensitive);
    expect(why).toContain(`the secret at ${SECRET_PATH} is not the one`);
    expect(why).not.toContain('other');
  });

  it('given the kind, names a changed secret by its field path, not array positions', () => {
    const why = bodyDifference(reviewed, body('nginx:1.28', 'other'), ContainerGroup.sensitive, ContainerGroup);
    expect(why).toBe(
      'the secret at /properties/containers[name=app]/properties/environmentVariables[name=PW]/secureValue is not the one the plan was made with',
    );
  });

  it('given the kind, names a placeholder secret in a plain field by its field path, not array positions', () => {
    const plain = (v: string): JsonObject => ({
      location: 'westeurope',
      properties: { containers: [{ name: 'app', properties: { image: 'nginx:1.28', environmentVariables: [{ name: 'DB_PASSWORD', value: v }] } }] },
    });
    const patterns = [...ContainerGroup.sensitive, '/properties/containers/0/properties/environmentVariables/0/value'];
    const why = bodyDifference(hashSensitive(plain('SuperSecretPw123'), patterns), plain('OtherSecretPw456'), patterns, ContainerGroup);
    expect(why).toBe(
      'its desired value at /properties/containers[name=app]/properties/environmentVariables[name=DB_PASSWORD]/value is not the one reviewed in the plan',
    );
  });

  it('explains a plan printed with masked secrets', () => {
    const masked = JSON.parse(JSON.stringify(reviewed).replace(/"sha256:[^"]+"/, '"(sensitive)"'));
    expect(bodyDifference(masked, body('nginx:1.28'), ContainerGroup.sensitive)).toContain('save plans with --out');
  });
});

describe('holdToSavedPlan', () => {
  const live: Observed = { id: 'id', spec: body('nginx:1.27'), outputs: {} };
  const version = liveVersion(ContainerGroup, live);
  const versions = new Map([['ContainerGroup/web', version]]);

  it('leaves a step that matches the saved plan alone', () => {
    const [s] = holdToSavedPlan(
      [step('update')],
      [{ address: 'ContainerGroup/web', action: 'update', desired: reviewed, liveVersion: version }],
      versions,
    ).value;
    expect(refusalOf(s)).toBeUndefined();
  });

  it('refuses a step whose live resource changed since the plan', () => {
    const [s] = holdToSavedPlan(
      [step('update')],
      [{ address: 'ContainerGroup/web', action: 'update', desired: reviewed, liveVersion: 'sha256:older' }],
      versions,
    ).value;
    expect(refusalOf(s)).toMatch(/^refused: the live resource changed since the plan/);
    expect(s.change).toMatchObject({ reason: expect.stringMatching(/^refused: the live resource changed/), reasonCode: 'saved-plan-refused' });
  });

  it('refuses a step whose action changed, and one the saved plan did not have', () => {
    const [changed] = holdToSavedPlan(
      [step('replace')],
      [{ address: 'ContainerGroup/web', action: 'update', desired: reviewed, liveVersion: version }],
      versions,
    ).value;
    expect(refusalOf(changed)).toContain('the saved plan would update it, but it would replace now');
    const [extra] = holdToSavedPlan([step('update')], [], versions).value;
    expect(refusalOf(extra)).toContain('it was not in the saved plan');
    const [noop] = holdToSavedPlan([step('no-op')], [], versions).value;
    expect(refusalOf(noop)).toBeUndefined();
  });

  it('refuses a step whose body is no longer the reviewed one, keeping the action', () => {
    const [s] = holdToSavedPlan(
      [step('update', body('evil:latest'))],
      [{ address: 'ContainerGroup/web', action: 'update', desired: reviewed, liveVersion: version }],
      versions,
    ).value;
    expect(refusalOf(s)).toContain('/properties/containers/0/properties/image');
    expect(s.change.action).toBe('update');
  });

  it('refuses a change the file pins no live version or body for (an edited plan file)', () => {
    const [noVersion] = holdToSavedPlan([step('update')], [{ address: 'ContainerGroup/web', action: 'update', desired: reviewed }], versions).value;
    expect(refusalOf(noVersion)).toContain('pins no live version');
    const [noBody] = holdToSavedPlan([step('update')], [{ address: 'ContainerGroup/web', action: 'update', liveVersion: version }], versions).value;
    expect(refusalOf(noBody)).toContain('holds no desired body');
  });

  it('warns about a saved change with nothing to do now', () => {
    const warnings = holdToSavedPlan([], [{ address: 'ContainerGroup/gone', action: 'update' }], versions).diagnostics;
    expect(warnings[0].message).toContain('has nothing to do now');
  });
});

describe('liveVersion', () => {
  it('ignores what the service fills in, and changes with anything else', () => {
    const a: Observed = { id: 'id', spec: body('nginx:1.27'), outputs: {} };
    const withState: Observed = {
      ...a,
      spec: { ...a.spec, properties: { ...(a.spec.properties as JsonObject), provisioningState: 'Updating', instanceView: { state: 'Pending' } } },
    };
    expect(liveVersion(ContainerGroup, withState)).toBe(liveVersion(ContainerGroup, a));
    expect(liveVersion(ContainerGroup, { ...a, spec: body('nginx:tampered') })).not.toBe(liveVersion(ContainerGroup, a));
    expect(liveVersion(ContainerGroup, undefined)).toBe('absent');
  });
});
