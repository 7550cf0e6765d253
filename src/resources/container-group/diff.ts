// Diff rules of a container group: what the service fills in, hides, or cannot change in place (SERVICES.md).
import type { DiffRules } from '../kind.js';

const envVars = ['properties/containers/*/properties/environmentVariables', 'properties/initContainers/*/properties/environmentVariables'];

/** Secrets: hidden in responses, stored only as salted hashes. */
export const sensitive: readonly string[] = [
  ...envVars.map((p) => `${p}/*/secureValue`),
  'properties/imageRegistryCredentials/*/password',
  'properties/volumes/*/azureFile/storageAccountKey',
  'properties/volumes/*/secret',
  'properties/extensions/*/properties/protectedSettings',
  'properties/diagnostics/logAnalytics/workspaceKey',
  'properties/diagnostics/logAnalytics/workspaceResourceId',
];

export const diffRules: DiffRules = {
  serverPopulated: [
    'id', 'type', 'systemData',
    'properties/provisioningState', 'properties/instanceView', 'properties/isCreatedFromStandbyPool',
    'properties/containers/*/properties/instanceView', 'properties/initContainers/*/properties/instanceView',
    'properties/ipAddress/ip', 'properties/ipAddress/fqdn',
    'identity/principalId', 'identity/tenantId',
    'identity/userAssignedIdentities/*/clientId', 'identity/userAssignedIdentities/*/principalId',
  ],
  writeOnly: sensitive,
  immutable: [
    'subscriptionId', 'resourceGroup', 'name', 'location', 'zones',
    'properties/osType', 'properties/restartPolicy', 'properties/subnetIds', 'properties/ipAddress/type',
    'properties/containers/*/properties/resources',
  ],
  arrayKeys: {
    'properties/containers': 'name',
    'properties/initContainers': 'name',
    'properties/volumes': 'name',
    'properties/secretReferences': 'name',
    'properties/extensions': 'name',
    'properties/imageRegistryCredentials': 'server',
    'properties/containers/*/properties/environmentVariables': 'name',
    'properties/initContainers/*/properties/environmentVariables': 'name',
    'properties/containers/*/properties/volumeMounts': 'name',
    'properties/initContainers/*/properties/volumeMounts': 'name',
    'properties/containers/*/properties/ports': 'port',
    'properties/ipAddress/ports': 'port',
    'properties/subnetIds': 'id',
  },
  // PUT is create-or-update of the whole resource: what the body leaves out reverts to its default.
  writes: { summary: 'PUT of the whole body', whole: ['location', 'tags', 'zones', 'identity', 'properties'] },
  // What the service fills in when the PUT leaves it out (SERVICES.md; the local cloud does the same).
  defaults: {
    'properties/sku': 'Standard',
    'properties/restartPolicy': 'Always',
    'properties/osType': 'Linux',
    'identity/type': 'None',
  },
  // ARM answers locations canonical and compares names and ids ignoring case (SERVICES.md).
  compare: {
    location: 'location',
    subscriptionId: 'ignoreCase',
    resourceGroup: 'ignoreCase',
    name: 'ignoreCase',
    'properties/subnetIds/*/id': 'ignoreCase',
    'properties/secretReferences/*/identity': 'ignoreCase',
    'properties/imageRegistryCredentials/*/identity': 'ignoreCase',
    'properties/encryptionProperties/identity': 'ignoreCase',
    'properties/identityAcls/acls/*/identity': 'ignoreCase',
    'properties/containerGroupProfile/id': 'ignoreCase',
    'properties/standbyPoolProfile/id': 'ignoreCase',
  },
  ignoreCaseKeys: ['identity/userAssignedIdentities'],
};
