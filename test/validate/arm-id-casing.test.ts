// ARM reads resource ids ignoring case, and its own tools write `resourcegroups`: every arm-id
// field accepts any casing of the fixed segments, and cross-references compare ids as ARM does.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { brief, mutate, validateText } from './helpers.js';

const BASE = readFileSync(new URL('../fixtures/manifests/container-group.yaml', import.meta.url), 'utf8');
const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const CANONICAL = `/subscriptions/${SUB}/resourceGroups/rg-web/providers/Vendor.ManagedIdentity/userAssignedIdentities/web-id`;
const LOWER = `/subscriptions/${SUB}/resourcegroups/rg-web/providers/Vendor.ManagedIdentity/userAssignedIdentities/web-id`;
const UPPER = `/SUBSCRIPTIONS/${SUB}/RESOURCEGROUPS/RG-WEB/PROVIDERS/Vendor.ManagedIdentity/userAssignedIdentities/WEB-ID`;

/** Every arm-id field of a container group, written with `id` (identity keys, references, profiles, subnets, acls). */
function everyArmId(id: string): string {
  const pool = `/subscriptions/${SUB}/resourcegroups/rg-web/providers/Vendor.StandbyPool/standbyContainerGroupPools/pool-1`;
  const profile = `/subscriptions/${SUB}/resourcegroups/rg-web/providers/Vendor.ContainerInstance/containerGroupProfiles/web-profile`;
  const subnet = `/subscriptions/${SUB}/resourcegroups/rg-net/providers/Vendor.Network/virtualNetworks/vnet/subnets/default`;
  let text = BASE.replaceAll(CANONICAL, id);
  text = mutate(
    text,
    '    restartPolicy: Always',
    [
      '    restartPolicy: Always',
      `    standbyPoolProfile:\n      id: ${pool}`,
      `    containerGroupProfile:\n      id: ${profile}\n      revision: 1`,
      `    subnetIds:\n      - id: ${subnet}`,
      `    identityAcls:\n      acls:\n        - access: All\n          identity: ${id}`,
    ].join('\n'),
  );
  return text;
}

describe('arm-id casing', () => {
  test.each([
    { reason: 'the lower-case resourcegroups the official samples and the CLI write', id: LOWER },
    { reason: 'every fixed segment in upper case', id: UPPER },
  ])('$reason validates wherever an arm-id is', async ({ id }) => {
    expect(brief(await validateText(everyArmId(id)))).toEqual([]);
  });

  test("a secret reference's identity matches an assigned identity written in another casing", async () => {
    const text = BASE.replace(`      ${CANONICAL}: {}`, `      ${LOWER}: {}`);
    expect(text).toContain(`identity: ${CANONICAL}`);
    expect(brief(await validateText(text))).toEqual([]);
  });

  test('an identity that is not assigned is still refused, in any casing', async () => {
    const other = LOWER.replace('web-id', 'other-id');
    const text = BASE.replace(`identity: ${CANONICAL}`, `identity: ${other}`);
    expect(brief(await validateText(text)).map((d) => d.message)).toEqual([
      'spec.properties.secretReferences[0].identity: this identity is not assigned to the group: add it to identity.userAssignedIdentities',
    ]);
  });

  test('a path that is not a resource id is still refused', async () => {
    const text = BASE.replaceAll(CANONICAL, `/subscriptions/${SUB}/resourcegroup/rg-web/providers/Vendor.ManagedIdentity/userAssignedIdentities/web-id`);
    expect(brief(await validateText(text)).map((d) => d.message)).toContain(
      'spec.identity.userAssignedIdentities: key "/subscriptions/8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11/resourcegroup/rg-web/providers/Vendor.ManagedIdentity/userAssignedIdentities/web-id" must be a resource id /subscriptions/{id}/resourceGroups/{group}/providers/{namespace}/{type}/{name}',
    );
  });
});
