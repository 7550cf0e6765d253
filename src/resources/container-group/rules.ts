// Cross-reference rules of the ContainerGroup spec beyond JSON Schema (the service's rules for references between containers, volumes and secrets).
import { isObject, type JsonObject, type JsonPath } from '../../core/json.js';
import { itemsOf, literal, reportDuplicates } from '../../core/rule-helpers.js';
import type { Report } from '../../core/kind.js';

const VOLUME_KINDS = ['azureFile', 'emptyDir', 'gitRepo', 'secret'] as const;

export function checkSpec(spec: JsonObject, report: Report): void {
  const props = isObject(spec.properties) ? spec.properties : {};
  const secretNames = new Set(
    itemsOf(props.secretReferences)
      .map(({ item }) => literal(item.name))
      .filter((n) => n !== undefined),
  );
  const named = (path: JsonPath, value: unknown, field: string) => {
    const name = literal(value as string);
    if (name !== undefined && !secretNames.has(name)) report(path, `${field} "${name}" names no entry of properties.secretReferences`);
  };
  const containers = [
    ...itemsOf(props.containers).map(({ item, index }) => ({ item, path: ['properties', 'containers', index] as JsonPath })),
    ...itemsOf(props.initContainers).map(({ item, index }) => ({ item, path: ['properties', 'initContainers', index] as JsonPath })),
  ];
  reportDuplicates(containers, 'name', 'container name', report);
  const volumeNames = checkVolumes(props, report, named);
  for (const { item, path } of containers) checkContainer(item, path, volumeNames, report, named);
  checkImages(props, report);
  for (const { item, index } of itemsOf(props.imageRegistryCredentials)) {
    named(['properties', 'imageRegistryCredentials', index, 'passwordReference'], item.passwordReference, 'passwordReference');
  }
  reportDuplicates(itemsOf(props.imageRegistryCredentials).map(at(['properties', 'imageRegistryCredentials'])), 'server', 'registry server', report);
  reportDuplicates(itemsOf(props.secretReferences).map(at(['properties', 'secretReferences'])), 'name', 'secret reference', report);
  reportDuplicates(itemsOf(props.extensions).map(at(['properties', 'extensions'])), 'name', 'extension', report);
  if (isObject(props.ipAddress)) reportDuplicates(itemsOf(props.ipAddress.ports).map(at(['properties', 'ipAddress', 'ports'])), 'port', 'port', report);
  checkSecretIdentities(spec, props, report);
}

type Named = (path: JsonPath, value: unknown, field: string) => void;

/**
 * A container needs an image unless the group is created from a container group profile, which
 * supplies each container's image and resources (the service's standby-pool sample sends
 * containers with only a name and a configMap).
 */
function checkImages(props: JsonObject, report: Report): void {
  if (isObject(props.containerGroupProfile)) return;
  for (const { item, index } of itemsOf(props.containers)) {
    if (isObject(item.properties) && !Object.hasOwn(item.properties, 'image')) {
      report(['properties', 'containers', index, 'properties'], 'missing required field image (or create the group from a properties.containerGroupProfile)', {
        at: 'key',
      });
    }
  }
}

function at(base: JsonPath) {
  return ({ item, index }: { item: JsonObject; index: number }) => ({ item, path: [...base, index] });
}

function checkContainer(container: JsonObject, path: JsonPath, volumes: ReadonlySet<string>, report: Report, named: Named): void {
  const p = isObject(container.properties) ? container.properties : {};
  const base = [...path, 'properties'];
  const envs = itemsOf(p.environmentVariables);
  for (const { item, index } of envs) {
    const envPath = [...base, 'environmentVariables', index];
    named([...envPath, 'secureValueReference'], item.secureValueReference, 'secureValueReference');
    const set = ['value', 'secureValue', 'secureValueReference'].filter((k) => Object.hasOwn(item, k));
    if (set.length > 1) report([...envPath, set[1]], `set only one of value, secureValue, secureValueReference (found ${set.join(', ')})`, { at: 'key' });
  }
  reportDuplicates(envs.map(at([...base, 'environmentVariables'])), 'name', 'environment variable', report);
  const mounts = itemsOf(p.volumeMounts);
  for (const { item, index } of mounts) {
    const name = literal(item.name);
    if (name !== undefined && !volumes.has(name))
      report([...base, 'volumeMounts', index, 'name'], `volume mount "${name}" names no entry of properties.volumes`);
  }
  reportDuplicates(mounts.map(at([...base, 'volumeMounts'])), 'name', 'volume mount', report);
  reportDuplicates(mounts.map(at([...base, 'volumeMounts'])), 'mountPath', 'mount path', report);
  reportDuplicates(itemsOf(p.ports).map(at([...base, 'ports'])), 'port', 'port', report);
}

/** Checks each volume and returns the names they define. */
function checkVolumes(props: JsonObject, report: Report, named: Named): Set<string> {
  const volumes = itemsOf(props.volumes);
  for (const { item, index } of volumes) {
    const path: JsonPath = ['properties', 'volumes', index];
    // secretReference fills a secret volume from secret references, alone or beside `secret`.
    const kinds = VOLUME_KINDS.filter((k) => Object.hasOwn(item, k) || (k === 'secret' && Object.hasOwn(item, 'secretReference')));
    if (kinds.length !== 1) {
      const found = kinds.length === 0 ? 'none' : kinds.join(', ');
      report(kinds.length === 0 ? path : [...path, kinds[1]], `a volume needs exactly one of ${VOLUME_KINDS.join(', ')} (found ${found})`, {
        at: kinds.length === 0 ? 'value' : 'key',
      });
    }
    if (isObject(item.azureFile))
      named([...path, 'azureFile', 'storageAccountKeyReference'], item.azureFile.storageAccountKeyReference, 'storageAccountKeyReference');
    if (isObject(item.secretReference)) {
      for (const [key, value] of Object.entries(item.secretReference)) named([...path, 'secretReference', key], value, 'secretReference');
    }
  }
  reportDuplicates(volumes.map(at(['properties', 'volumes'])), 'name', 'volume name', report);
  return new Set(volumes.map(({ item }) => literal(item.name)).filter((n) => n !== undefined));
}

/** A secret reference is read with a managed identity that the group must carry. */
function checkSecretIdentities(spec: JsonObject, props: JsonObject, report: Report): void {
  const identity = isObject(spec.identity) ? spec.identity : undefined;
  const type = typeof identity?.type === 'string' ? identity.type : '';
  const userAssigned = isObject(identity?.userAssignedIdentities) ? identity.userAssignedIdentities : {};
  const assigned = new Set(Object.keys(userAssigned).map((k) => k.toLowerCase()));
  if (identity && type.includes('UserAssigned') && assigned.size === 0) {
    report(['identity', 'type'], `"${type}" needs at least one entry in identity.userAssignedIdentities`);
  }
  if (identity && !type.includes('UserAssigned') && assigned.size > 0) {
    report(['identity', 'userAssignedIdentities'], 'user-assigned identities need identity.type UserAssigned or "SystemAssigned, UserAssigned"', { at: 'key' });
  }
  for (const { item, index } of itemsOf(props.secretReferences)) {
    const id = literal(item.identity);
    if (id !== undefined && !assigned.has(id.toLowerCase())) {
      report(['properties', 'secretReferences', index, 'identity'], 'this identity is not assigned to the group: add it to identity.userAssignedIdentities');
    }
  }
}
