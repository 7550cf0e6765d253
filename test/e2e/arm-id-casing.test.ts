// Ids as ARM and its tools write them (`resourcegroups` in lower case): a group whose identity,
// secret reference and encryption identity use them validates, applies, re-plans empty and imports.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { groupManifest, moor, readState, startCloud, SUB, workdir, type Cloud } from './harness.js';

const LOWER = `/subscriptions/${SUB}/resourcegroups/rg-e2e/providers/Vendor.ManagedIdentity/userAssignedIdentities/app-id`;
const CANONICAL = LOWER.replace('/resourcegroups/', '/resourceGroups/');

// The identity is assigned in one casing and referenced in the other: ARM reads both as one id.
const GROUP = groupManifest('cased', {
  extra: `    secretReferences:
      - name: kv
        identity: ${CANONICAL}
        secretReferenceUri: https://kv.example.net/secrets/db
    identityAcls:
      acls:
        - {access: All, identity: ${LOWER}}
`,
}).replace('  location: westeurope\n', `  location: westeurope\n  identity:\n    type: UserAssigned\n    userAssignedIdentities:\n      ${LOWER}: {}\n`);

describe('ARM ids in the casing ARM writes', () => {
  let cloud: Cloud;
  let dir: string;
  const run = (...args: string[]) => moor(dir, cloud, args);

  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({ 'm/secret.txt': 'pw\n', 'm/cased.yaml': GROUP });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('validate accepts them and cross-references them ignoring case; apply and a second plan agree', async () => {
    const validate = await run('validate', 'm');
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    const apply = await run('apply', 'm', '--auto-approve');
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const again = await run('plan', 'm', '--detailed-exitcode');
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  test('import adopts the group by an id with resourcegroups in lower case', async () => {
    const fresh = workdir({ 'm/secret.txt': 'pw\n', 'm/cased.yaml': GROUP });
    const id = `/subscriptions/${SUB}/resourcegroups/rg-e2e/providers/Vendor.ContainerInstance/containerGroups/cased`;
    const imported = await moor(fresh, cloud, ['import', 'ContainerGroup/cased', id, 'm']);
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    expect((await readState(fresh)).resources['ContainerGroup/cased'].id).toBe(id.replace('/resourcegroups/', '/resourceGroups/'));
  });
});
