// Request rules of containers and init containers, as ARM enforces them: names, images, resources, env, mounts.
import type { Path, Problems, RequestObject } from './validation-kit.js';

/** What a container may refer to elsewhere in the group. */
export interface GroupNames {
  readonly volumes: ReadonlySet<string>;
  readonly secretReferences: ReadonlySet<string>;
  /** The group is created from a container group profile, which supplies images and resources. */
  readonly fromProfile: boolean;
}

const GPU_SKUS = ['K80', 'P100', 'V100'];

export function checkContainers(p: Problems, list: unknown, path: Path, names: GroupNames, init: boolean): void {
  const items = p.array(list, path, !init);
  if (!items) return;
  if (!init && items.length === 0) p.add(path, 'A container group needs at least one container');
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const at = [...path, i];
    const c = p.object(item, at, true);
    if (!c) return;
    const name = p.string(c.name, [...at, 'name'], true);
    if (name !== undefined) {
      if (seen.has(name)) p.add([...at, 'name'], `The container name '${name}' is used twice`, 'DuplicateContainerName');
      seen.add(name);
    }
    const props = p.object(c.properties, [...at, 'properties'], true);
    if (props) checkContainerProperties(p, props, [...at, 'properties'], names, init);
  });
}

function checkContainerProperties(p: Problems, props: RequestObject, at: Path, names: GroupNames, init: boolean): void {
  const supplied = names.fromProfile && !init;
  p.string(props.image, [...at, 'image'], !supplied);
  const command = p.array(props.command, [...at, 'command']);
  command?.forEach((arg, i) => p.string(arg, [...at, 'command', i]));
  if (!init) {
    if (!supplied || props.resources !== undefined) checkResources(p, props.resources, [...at, 'resources']);
    checkPorts(p, props.ports, [...at, 'ports']);
  }
  checkEnvironment(p, props.environmentVariables, [...at, 'environmentVariables'], names);
  checkVolumeMounts(p, props.volumeMounts, [...at, 'volumeMounts'], names);
  p.object(props.securityContext, [...at, 'securityContext']);
}

function checkResources(p: Problems, value: unknown, at: Path): void {
  const resources = p.object(value, at, true);
  if (!resources) return;
  const requests = p.object(resources.requests, [...at, 'requests'], true);
  if (requests) checkAmounts(p, requests, [...at, 'requests'], true);
  const limits = p.object(resources.limits, [...at, 'limits']);
  if (limits) checkAmounts(p, limits, [...at, 'limits'], false);
}

function checkAmounts(p: Problems, amounts: RequestObject, at: Path, required: boolean): void {
  p.number(amounts.cpu, [...at, 'cpu'], { required, positive: true });
  p.number(amounts.memoryInGB, [...at, 'memoryInGB'], { required, positive: true });
  const gpu = p.object(amounts.gpu, [...at, 'gpu']);
  if (gpu) {
    p.number(gpu.count, [...at, 'gpu', 'count'], { required: true, integer: true, positive: true });
    p.oneOf(gpu.sku, GPU_SKUS, [...at, 'gpu', 'sku']);
    p.string(gpu.sku, [...at, 'gpu', 'sku'], true);
  }
}

export function checkPorts(p: Problems, value: unknown, at: Path): void {
  p.array(value, at)?.forEach((item, i) => {
    const port = p.object(item, [...at, i], true);
    if (!port) return;
    const n = p.number(port.port, [...at, i, 'port'], { required: true, integer: true });
    if (n !== undefined && (n < 1 || n > 65535)) p.add([...at, i, 'port'], 'A port must be between 1 and 65535');
    p.openValue(port.protocol, [...at, i, 'protocol']);
  });
}

function checkEnvironment(p: Problems, value: unknown, at: Path, names: GroupNames): void {
  p.array(value, at)?.forEach((item, i) => {
    const env = p.object(item, [...at, i], true);
    if (!env) return;
    p.string(env.name, [...at, i, 'name'], true);
    p.string(env.value, [...at, i, 'value']);
    p.string(env.secureValue, [...at, i, 'secureValue']);
    const ref = p.string(env.secureValueReference, [...at, i, 'secureValueReference']);
    if (ref !== undefined && !names.secretReferences.has(ref)) {
      p.add([...at, i, 'secureValueReference'], `The secret reference '${ref}' is not defined in properties.secretReferences`, 'InvalidSecretReference');
    }
  });
}

function checkVolumeMounts(p: Problems, value: unknown, at: Path, names: GroupNames): void {
  p.array(value, at)?.forEach((item, i) => {
    const mount = p.object(item, [...at, i], true);
    if (!mount) return;
    const name = p.string(mount.name, [...at, i, 'name'], true);
    if (name !== undefined && !names.volumes.has(name)) {
      p.add([...at, i, 'name'], `The volume '${name}' is not defined in properties.volumes`, 'InvalidVolumeMount');
    }
    const mountPath = p.string(mount.mountPath, [...at, i, 'mountPath'], true);
    if (mountPath?.includes(':')) p.add([...at, i, 'mountPath'], 'A mount path must not contain a colon', 'InvalidVolumeMountPath');
    p.boolean(mount.readOnly, [...at, i, 'readOnly']);
  });
}
