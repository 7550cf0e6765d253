// Every ContainerGroup rule (schema and cross-reference) broken alone, with its message and position.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { brief, mutate, positionOf, validateText } from './helpers.js';

const BASE = readFileSync(new URL('../fixtures/manifests/container-group.yaml', import.meta.url), 'utf8');
const ID = '/subscriptions/8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11/resourceGroups/rg-web/providers/Vendor.ManagedIdentity/userAssignedIdentities/web-id';

interface Case {
  reason: string;
  from: string;
  to: string;
  message: string;
  /** The diagnostic points at this token of the changed text (nth occurrence, plus offset). */
  at: string;
  nth?: number;
  offset?: number;
  severity?: 'error' | 'warning';
  /** Other diagnostics follow from the same change (e.g. a secret reference losing its identity). */
  more?: boolean;
}

const cases: Case[] = [
  {
    reason: 'a misspelt key is reported at the key, with a suggestion',
    from: 'restartPolicy: Always',
    to: 'restartPolicyy: Always',
    at: 'restartPolicyy',
    message: 'spec.properties.restartPolicyy: unknown field; did you mean restartPolicy?',
  },
  {
    reason: 'a restart policy moor does not know is a warning (the seed does not show the complete list)',
    from: 'restartPolicy: Always',
    to: 'restartPolicy: Sometimes',
    at: 'Sometimes',
    severity: 'warning',
    message:
      'spec.properties.restartPolicy: "Sometimes" is not one of the known values (Always, OnFailure, Never); it is sent as written and the service decides',
  },
  {
    reason: 'an enum value outside a list the seed states in full is an error',
    from: '    restartPolicy: Always',
    to: '    restartPolicy: Always\n    osType: Solaris',
    at: 'Solaris',
    message: 'spec.properties.osType: must be one of Windows, Linux',
  },
  {
    reason: 'the subscription id must be a UUID',
    from: 'subscriptionId: 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11',
    to: 'subscriptionId: not-a-uuid',
    at: 'not-a-uuid',
    message: 'spec.subscriptionId: must be a UUID such as 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11',
  },
  {
    reason: 'a resource group name is at most 90 characters',
    from: 'resourceGroup: rg-web',
    to: `resourceGroup: ${'r'.repeat(91)}`,
    at: 'rrrr',
    message: 'spec.resourceGroup: must be 1 to 90 characters long (must be 1 to 90 letters, digits, "-", "_", ".", "(" or ")", not ending with ".")',
  },
  {
    reason: 'a resource group name cannot end with a dot',
    from: 'resourceGroup: rg-web',
    to: 'resourceGroup: rg-web.',
    at: 'rg-web.',
    message: 'spec.resourceGroup: must be 1 to 90 letters, digits, "-", "_", ".", "(" or ")", not ending with "."',
  },
  {
    reason: 'a missing required field is reported at the parent key',
    from: '    restartPolicy: Always',
    to: '    restartPolicy: Always\n    ipAddress:\n      type: Public',
    at: 'ipAddress',
    message: 'spec.properties.ipAddress: missing required field ports',
  },
  {
    reason: 'a missing field of a list item is reported at the item',
    from: '            - name: data\n              mountPath: /data\n',
    to: '            - name: data\n',
    at: 'name: data',
    message: 'spec.properties.initContainers[0].properties.volumeMounts[0]: missing required field mountPath',
  },
  {
    reason: 'a mount path must not hold a colon',
    from: 'mountPath: /var/data',
    to: 'mountPath: C:/data',
    at: 'C:/data',
    message: 'spec.properties.containers[0].properties.volumeMounts[0].mountPath: must be a path without ":"',
  },
  {
    reason: 'a gitRepo directory must not contain ".."',
    from: 'directory: app',
    to: 'directory: ../up',
    at: '../up',
    message: 'spec.properties.volumes[3].gitRepo.directory: must not contain ".."',
  },
  {
    reason: 'tag keys must not contain /',
    from: 'team: platform',
    to: 'te/am: platform',
    at: 'te/am',
    message: 'spec.tags: key "te/am" tag keys must not contain < > % & \\ ? /',
  },
  {
    reason: 'tag values are at most 256 characters',
    from: 'team: platform',
    to: `team: ${'v'.repeat(257)}`,
    at: 'vvvv',
    message: 'spec.tags.team: must be at most 256 characters long',
  },
  {
    reason: 'a port is an integer',
    from: '- port: 80',
    to: '- port: eighty',
    at: 'eighty',
    message: 'spec.properties.containers[0].properties.ports[0].port: must be an integer',
  },
  {
    reason: 'a protocol other than TCP or UDP is a warning (the seed names only the values in use)',
    from: 'protocol: TCP',
    to: 'protocol: SCTP',
    at: 'SCTP',
    severity: 'warning',
    message:
      'spec.properties.containers[0].properties.ports[0].protocol: "SCTP" is not one of the known values (TCP, UDP); it is sent as written and the service decides',
  },
  {
    reason: 'a container name is lower case',
    from: '- name: app',
    to: '- name: App',
    at: 'App',
    message: 'spec.properties.containers[0].name: must be 1 to 63 lower-case letters, digits and inner hyphens',
  },
  {
    reason: 'a seccomp profile is base64',
    from: '          image: nginx',
    to: '          image: nginx\n          securityContext:\n            seccompProfile: "!!bad"',
    at: '"!!bad"',
    message: 'spec.properties.containers[0].properties.securityContext.seccompProfile: must be base64',
  },
  {
    reason: 'a standby pool id is a resource id',
    from: '    restartPolicy: Always',
    to: '    restartPolicy: Always\n    standbyPoolProfile:\n      id: pool-1',
    at: 'pool-1',
    message: 'spec.properties.standbyPoolProfile.id: must be a resource id /subscriptions/{id}/resourceGroups/{group}/providers/{namespace}/{type}/{name}',
  },
  {
    reason: 'a secret reference URI must be a URI',
    from: 'secretReferenceUri: https://kv.example.net/secrets/one',
    to: 'secretReferenceUri: not a uri',
    at: 'not a uri',
    message: 'spec.properties.secretReferences[0].secretReferenceUri: must be an absolute URI',
  },
  {
    reason: 'a volume with two kinds',
    from: '        emptyDir: {}',
    to: '        emptyDir: {}\n        gitRepo:\n          repository: https://x.example.net/r.git',
    at: 'gitRepo',
    message: 'spec.properties.volumes[0].gitRepo: a volume needs exactly one of azureFile, emptyDir, gitRepo, secret (found emptyDir, gitRepo)',
  },
  {
    reason: 'a volume with no kind',
    from: '        emptyDir: {}\n',
    to: '',
    at: 'name: data',
    nth: 3,
    message: 'spec.properties.volumes[0]: a volume needs exactly one of azureFile, emptyDir, gitRepo, secret (found none)',
  },
  {
    reason: 'secureValueReference names a secret reference',
    from: 'secureValueReference: kv-secret',
    to: 'secureValueReference: nope',
    at: 'nope',
    message:
      'spec.properties.containers[0].properties.environmentVariables[0].secureValueReference: secureValueReference "nope" names no entry of properties.secretReferences',
  },
  {
    reason: 'passwordReference names a secret reference',
    from: 'passwordReference: kv-secret',
    to: 'passwordReference: nope',
    at: 'nope',
    message: 'spec.properties.imageRegistryCredentials[0].passwordReference: passwordReference "nope" names no entry of properties.secretReferences',
  },
  {
    reason: 'storageAccountKeyReference names a secret reference',
    from: 'storageAccountKeyReference: kv-secret',
    to: 'storageAccountKeyReference: nope',
    at: 'nope',
    message: 'spec.properties.volumes[1].azureFile.storageAccountKeyReference: storageAccountKeyReference "nope" names no entry of properties.secretReferences',
  },
  {
    reason: 'a volume secretReference value names a secret reference',
    from: 'key1: kv-secret',
    to: 'key1: nope',
    at: 'nope',
    message: 'spec.properties.volumes[2].secretReference.key1: secretReference "nope" names no entry of properties.secretReferences',
  },
  {
    reason: "a secret reference's identity must be assigned to the group",
    from: 'web-id: {}',
    to: 'other-id: {}',
    at: ID,
    message: 'spec.properties.secretReferences[0].identity: this identity is not assigned to the group: add it to identity.userAssignedIdentities',
  },
  {
    reason: 'user-assigned identities need identity type UserAssigned',
    from: 'type: UserAssigned',
    to: 'type: SystemAssigned',
    at: 'userAssignedIdentities',
    message: 'spec.identity.userAssignedIdentities: user-assigned identities need identity.type UserAssigned or "SystemAssigned, UserAssigned"',
  },
  {
    reason: 'identity type UserAssigned needs user-assigned identities',
    from: `    userAssignedIdentities:\n      ${ID}: {}\n`,
    to: '',
    at: 'UserAssigned',
    message: 'spec.identity.type: "UserAssigned" needs at least one entry in identity.userAssignedIdentities',
    more: true,
  },
  {
    reason: 'metadata.name stands in for a missing spec.name and must follow its rules',
    from: '  name: web\n',
    to: '  name: Web_1\n',
    at: 'Web_1',
    message: 'metadata.name: used as spec.name (not set), it must be 1 to 63 lower-case letters, digits and inner hyphens',
  },
  {
    reason: 'an init container volume mount names a volume',
    from: '            - name: data\n              mountPath: /data',
    to: '            - name: nodata\n              mountPath: /data',
    at: 'nodata',
    message: 'spec.properties.initContainers[0].properties.volumeMounts[0].name: volume mount "nodata" names no entry of properties.volumes',
  },
  {
    reason: 'volume names are unique',
    from: '- name: share',
    to: '- name: data',
    at: 'name: data',
    nth: 4,
    offset: 6,
    message: 'spec.properties.volumes[1].name: duplicate volume name "data" (also at spec.properties.volumes[0])',
  },
  {
    reason: 'environment variable names are unique in a container',
    from: '            - name: TOKEN\n',
    to: '            - name: TOKEN\n              value: a\n            - name: TOKEN\n',
    at: 'TOKEN',
    nth: 2,
    message:
      'spec.properties.containers[0].properties.environmentVariables[1].name: duplicate environment variable "TOKEN" (also at spec.properties.containers[0].properties.environmentVariables[0])',
  },
  {
    reason: 'an environment variable has one source of value',
    from: '              secureValueReference: kv-secret',
    to: '              value: plain\n              secureValueReference: kv-secret',
    at: 'secureValueReference',
    message:
      'spec.properties.containers[0].properties.environmentVariables[0].secureValueReference: set only one of value, secureValue, secureValueReference (found value, secureValueReference)',
  },
  {
    reason: 'a literal secret is a warning that never shows the secret',
    from: 'secureValueReference: kv-secret',
    to: 'secureValue: hunter2',
    at: 'hunter2',
    severity: 'warning',
    message: 'spec.properties.containers[0].properties.environmentVariables[0].secureValue: a secret written in the manifest; use ${env:NAME} or ${file:path}',
  },
];

describe('ContainerGroup validation', () => {
  test('the base fixture is valid', async () => {
    expect(brief(await validateText(BASE))).toEqual([]);
  });

  test.each(cases)('$reason', async (c) => {
    const text = mutate(BASE, c.from, c.to);
    const pos = positionOf(text, c.at, c.nth);
    const found = brief(await validateText(text));
    const expected = { severity: c.severity ?? 'error', line: pos.line, col: pos.col + (c.offset ?? 0), message: c.message };
    if (c.more) expect(found).toContainEqual(expected);
    else expect(found).toEqual([expected]);
  });

  test('placeholders stand for values known only at plan time', async () => {
    let text = mutate(BASE, 'subscriptionId: 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11', 'subscriptionId: ${env:SUBSCRIPTION}');
    text = mutate(text, '- port: 80', '- port: ${env:PORT}');
    text = mutate(text, 'secureValueReference: kv-secret', 'secureValue: ${file:secrets/token}');
    expect(brief(await validateText(text))).toEqual([]);
  });
});
