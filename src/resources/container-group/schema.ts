// JSON Schema of the ContainerGroup spec: addressing fields plus the request body of seed 001.
import type { JsonObject } from '../../core/json.js';
import {
  armId, array, base64, boolean, enumOf, int32, nonEmpty, object, patterned, resourceGroup, string,
  stringList, stringMap, tags, uri, uuid,
} from '../../core/schema-parts.js';

const lowerName = (max: number) => patterned(
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
  `must be 1 to ${max} lower-case letters, digits and inner hyphens`,
  { minLength: 1, maxLength: max },
);

const port = object({
  port: { type: 'integer', minimum: 1, maximum: 65535 },
  protocol: enumOf(['TCP', 'UDP']),
}, ['port']);

const gpu = object({ count: { type: 'integer', minimum: 1 }, sku: enumOf(['K80', 'P100', 'V100']) }, ['count', 'sku']);
const resourceAmounts = (required: string[]) => object({ cpu: { type: 'number', exclusiveMinimum: 0 }, memoryInGB: { type: 'number', exclusiveMinimum: 0 }, gpu }, required);

const environmentVariable = object({
  name: nonEmpty, value: string(), secureValue: string(), secureValueReference: nonEmpty,
}, ['name']);

const volumeMount = object({
  name: nonEmpty,
  mountPath: patterned('^[^:]+$', 'must be a path without ":"'),
  readOnly: boolean,
}, ['name', 'mountPath']);

const securityContext = object({
  privileged: boolean,
  allowPrivilegeEscalation: boolean,
  capabilities: object({ add: stringList, drop: stringList }),
  runAsUser: int32,
  runAsGroup: int32,
  seccompProfile: base64,
});

const probe = object({
  exec: object({ command: stringList }),
  httpGet: object({
    path: string(),
    port: { type: 'integer', minimum: 1, maximum: 65535 },
    scheme: enumOf(['http', 'https']),
    httpHeaders: array(object({ name: nonEmpty, value: string() }, ['name'])),
  }, ['port']),
  initialDelaySeconds: int32,
  periodSeconds: int32,
  failureThreshold: int32,
  successThreshold: int32,
  timeoutSeconds: int32,
});

const container = object({
  name: lowerName(63),
  properties: object({
    image: nonEmpty,
    command: stringList,
    ports: array(port),
    environmentVariables: array(environmentVariable),
    resources: object({ requests: resourceAmounts(['cpu', 'memoryInGB']), limits: resourceAmounts([]) }, ['requests']),
    securityContext,
    volumeMounts: array(volumeMount),
    configMap: object({ keyValuePairs: stringMap }),
    livenessProbe: probe,
    readinessProbe: probe,
  }, ['image']),
}, ['name', 'properties']);

const initContainer = object({
  name: lowerName(63),
  properties: object({
    image: nonEmpty,
    command: stringList,
    environmentVariables: array(environmentVariable),
    securityContext,
    volumeMounts: array(volumeMount),
  }, ['image']),
}, ['name', 'properties']);

// Exactly one volume kind is a rule (rules.ts), where the message can name what was found.
const volume = object({
  name: nonEmpty,
  azureFile: object({
    shareName: nonEmpty,
    storageAccountName: nonEmpty,
    storageAccountKey: string(),
    storageAccountKeyReference: nonEmpty,
    readOnly: boolean,
    userAssignedIdentityClientId: string(),
  }, ['shareName', 'storageAccountName']),
  emptyDir: { type: 'object' },
  gitRepo: object({
    repository: nonEmpty,
    directory: patterned('^(?!.*\\.\\.)', 'must not contain ".."'),
    revision: string(),
  }, ['repository']),
  secret: { type: 'object', additionalProperties: base64 },
  secretReference: { type: 'object', additionalProperties: nonEmpty },
}, ['name']);

const identityAccessLevel = enumOf(['All', 'System', 'User']);

const properties = object({
  containers: array(container, { minItems: 1 }),
  initContainers: array(initContainer),
  confidentialComputeProperties: object({ ccePolicy: base64 }),
  containerGroupProfile: object({ id: armId, revision: int32 }, ['id']),
  diagnostics: object({
    logAnalytics: object({
      logType: enumOf(['ContainerInsights', 'ContainerInstanceLogs']),
      metadata: stringMap,
      workspaceId: nonEmpty,
      workspaceKey: string(),
      workspaceResourceId: string(),
    }, ['workspaceId']),
  }),
  dnsConfig: object({ nameServers: stringList, options: string(), searchDomains: string() }, ['nameServers']),
  encryptionProperties: object({ identity: string(), keyName: nonEmpty, keyVersion: nonEmpty, vaultBaseUrl: uri }, ['vaultBaseUrl', 'keyName', 'keyVersion']),
  extensions: array(object({
    name: nonEmpty,
    properties: object({ extensionType: nonEmpty, version: nonEmpty, settings: { type: 'object' }, protectedSettings: { type: 'object' } }, ['extensionType', 'version']),
  }, ['name', 'properties'])),
  identityAcls: object({
    acls: array(object({ access: identityAccessLevel, identity: armId }, ['access', 'identity'])),
    defaultAccess: identityAccessLevel,
  }),
  imageRegistryCredentials: array(object({
    server: patterned('^(?![a-zA-Z][a-zA-Z0-9+.-]*://)\\S+$', 'must be a registry address without a protocol prefix'),
    username: string(),
    password: string(),
    passwordReference: nonEmpty,
    identity: string(),
    identityUrl: string(),
  }, ['server'])),
  ipAddress: object({
    type: enumOf(['Public', 'Private']),
    ports: array(port, { minItems: 1 }),
    dnsNameLabel: patterned('^[a-z][a-z0-9-]{1,61}[a-z0-9]$', 'must be 3 to 63 lower-case letters, digits and hyphens, starting with a letter'),
    autoGeneratedDomainNameLabelScope: enumOf(['Unsecure', 'TenantReuse', 'SubscriptionReuse', 'ResourceGroupReuse', 'NoReuse']),
  }, ['type', 'ports']),
  osType: enumOf(['Windows', 'Linux']),
  priority: enumOf(['Regular', 'Spot']),
  restartPolicy: enumOf(['Always', 'OnFailure', 'Never']),
  secretReferences: array(object({ name: nonEmpty, identity: armId, secretReferenceUri: uri }, ['name', 'identity', 'secretReferenceUri'])),
  sku: enumOf(['Standard', 'Confidential', 'Dedicated']),
  standbyPoolProfile: object({ id: armId, failContainerGroupCreateOnReuseFailure: boolean }, ['id']),
  subnetIds: array(object({ id: armId }, ['id'])),
  volumes: array(volume),
}, ['containers']);

export const specSchema: JsonObject = object({
  subscriptionId: uuid,
  resourceGroup,
  name: { ...lowerName(63), defaultsToMetadataName: true },
  location: nonEmpty,
  tags,
  zones: stringList,
  identity: object({
    type: enumOf(['SystemAssigned', 'UserAssigned', 'SystemAssigned, UserAssigned', 'None']),
    userAssignedIdentities: { type: 'object', propertyNames: armId, additionalProperties: object({}) },
  }, ['type']),
  properties,
}, ['subscriptionId', 'resourceGroup', 'properties']);
