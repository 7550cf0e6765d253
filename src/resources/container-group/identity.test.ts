// Import's check that an ARM id names the manifest's container group, compared as ARM does.
import { describe, expect, test } from 'vitest';
import { identityMismatches } from './identity.js';

const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const id = (rg: string, name: string, sub = SUB) => `/subscriptions/${sub}/resourceGroups/${rg}/providers/Vendor.ContainerInstance/containerGroups/${name}`;
const target = (given: string) => ({ name: 'worker', spec: { subscriptionId: SUB, resourceGroup: 'rg-web' }, id: given });
const observed = (observedId: string) => ({ id: observedId, spec: {}, outputs: {} });

describe('container group identityMismatches', () => {
  test('the same group in another spelling is the same group', () => {
    const given = id('RG-Web', 'Worker', SUB.toUpperCase());
    expect(identityMismatches(target(given), observed(given))).toEqual([]);
  });

  test('another name, resource group or subscription is named', () => {
    expect(identityMismatches(target(id('rg-web', 'web')), observed(id('rg-web', 'web')))).toEqual(["its name is web, the manifest's is worker"]);
    const other = id('rg-x', 'worker', '00000000-0000-0000-0000-000000000000');
    expect(identityMismatches(target(other), observed(other))).toEqual([
      "its subscription is 00000000-0000-0000-0000-000000000000, the manifest's is 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11",
      "its resource group is rg-x, the manifest's is rg-web",
    ]);
  });

  test("something that is not a container group id is refused even when the manifest's group was read", () => {
    expect(identityMismatches(target('garbage'), observed(id('rg-web', 'worker')))[0]).toContain('not a container group id');
  });

  test('a spec name overrides the manifest name', () => {
    const t = { name: 'worker', spec: { subscriptionId: SUB, resourceGroup: 'rg-web', name: 'worker-eu' }, id: id('rg-web', 'worker-eu') };
    expect(identityMismatches(t, observed(t.id))).toEqual([]);
  });
});
