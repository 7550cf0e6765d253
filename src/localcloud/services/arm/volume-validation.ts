// Request rules of volumes, registry credentials and secret references, as ARM enforces them for container groups.
import { isObject } from '../../../core/json.js';
import { asSent } from '../../as-sent.js';
import type { Path, Problems, RequestObject } from './validation-kit.js';

const VOLUME_KINDS = ['azureFile', 'emptyDir', 'gitRepo', 'secret'] as const;

export function checkVolumes(p: Problems, value: unknown, at: Path, secretRefs: ReadonlySet<string>): void {
  const seen = new Set<string>();
  p.array(value, at)?.forEach((item, i) => {
    const volume = p.object(item, [...at, i], true);
    if (!volume) return;
    const name = p.string(volume.name, [...at, i, 'name'], true);
    if (name !== undefined) {
      if (seen.has(name)) p.add([...at, i, 'name'], `The volume name '${name}' is used twice`, 'DuplicateVolumeName');
      seen.add(name);
    }
    checkVolumeKind(p, volume, [...at, i], secretRefs);
  });
}

function checkVolumeKind(p: Problems, volume: RequestObject, at: Path, secretRefs: ReadonlySet<string>): void {
  // A secret volume may hold its values inline (`secret`), by reference (`secretReference`), or both.
  const kinds = VOLUME_KINDS.filter((k) => volume[k] !== undefined && volume[k] !== null);
  const secretByReference = volume.secretReference !== undefined && volume.secretReference !== null;
  const count = kinds.length + (secretByReference && !kinds.includes('secret') ? 1 : 0);
  if (count !== 1) {
    p.add(at, `A volume needs exactly one kind among azureFile, emptyDir, gitRepo and secret; found ${count}`, 'InvalidVolumeKind');
  }
  if (volume.azureFile !== undefined) checkAzureFile(p, volume.azureFile, [...at, 'azureFile'], secretRefs);
  if (volume.emptyDir !== undefined) p.object(volume.emptyDir, [...at, 'emptyDir']);
  if (volume.gitRepo !== undefined) checkGitRepo(p, volume.gitRepo, [...at, 'gitRepo']);
  if (volume.secret !== undefined) {
    const secret = p.object(volume.secret, [...at, 'secret']);
    for (const key of Object.keys(secret ?? {})) p.base64(secret?.[key], [...at, 'secret', key]);
  }
  if (secretByReference) {
    const refs = p.object(volume.secretReference, [...at, 'secretReference']);
    for (const [key, ref] of Object.entries(refs ?? {})) {
      if (typeof ref !== 'string' || !secretRefs.has(ref)) {
        p.add([...at, 'secretReference', key], `The secret reference '${asSent(ref)}' is not defined in properties.secretReferences`, 'InvalidSecretReference');
      }
    }
  }
}

function checkAzureFile(p: Problems, value: unknown, at: Path, secretRefs: ReadonlySet<string>): void {
  const file = p.object(value, at);
  if (!file) return;
  p.string(file.shareName, [...at, 'shareName'], true);
  p.string(file.storageAccountName, [...at, 'storageAccountName'], true);
  p.string(file.storageAccountKey, [...at, 'storageAccountKey']);
  p.boolean(file.readOnly, [...at, 'readOnly']);
  const ref = p.string(file.storageAccountKeyReference, [...at, 'storageAccountKeyReference']);
  if (ref !== undefined && !secretRefs.has(ref)) {
    p.add([...at, 'storageAccountKeyReference'], `The secret reference '${ref}' is not defined in properties.secretReferences`, 'InvalidSecretReference');
  }
}

function checkGitRepo(p: Problems, value: unknown, at: Path): void {
  const repo = p.object(value, at);
  if (!repo) return;
  p.string(repo.repository, [...at, 'repository'], true);
  p.string(repo.revision, [...at, 'revision']);
  const dir = p.string(repo.directory, [...at, 'directory']);
  if (dir?.split(/[\\/]/).some((part) => part === '..' || part.startsWith('..'))) {
    p.add([...at, 'directory'], "A gitRepo directory must not contain or start with '..'", 'InvalidGitRepoDirectory');
  }
}

export function checkRegistryCredentials(p: Problems, value: unknown, at: Path, secretRefs: ReadonlySet<string>): void {
  p.array(value, at)?.forEach((item, i) => {
    const cred = p.object(item, [...at, i], true);
    if (!cred) return;
    const server = p.string(cred.server, [...at, i, 'server'], true);
    if (server?.includes('://')) p.add([...at, i, 'server'], 'A registry server is given without a protocol prefix');
    p.string(cred.username, [...at, i, 'username']);
    p.string(cred.password, [...at, i, 'password']);
    const ref = p.string(cred.passwordReference, [...at, i, 'passwordReference']);
    if (ref !== undefined && !secretRefs.has(ref)) {
      p.add([...at, i, 'passwordReference'], `The secret reference '${ref}' is not defined in properties.secretReferences`, 'InvalidSecretReference');
    }
  });
}

/** Checks secretReferences and returns their names; each identity must be assigned to the group. */
export function checkSecretReferences(p: Problems, value: unknown, at: Path, identity: unknown): Set<string> {
  const names = new Set<string>();
  const assigned = new Set(
    Object.keys(isObject(identity) && isObject(identity.userAssignedIdentities) ? identity.userAssignedIdentities : {}).map((k) => k.toLowerCase()),
  );
  p.array(value, at)?.forEach((item, i) => {
    const ref = p.object(item, [...at, i], true);
    if (!ref) return;
    const name = p.string(ref.name, [...at, i, 'name'], true);
    if (name !== undefined) names.add(name);
    p.armId(ref.identity, [...at, i, 'identity'], true);
    if (typeof ref.identity === 'string' && !assigned.has(ref.identity.toLowerCase())) {
      p.add([...at, i, 'identity'], 'The identity of a secret reference must be a user-assigned identity of the group', 'InvalidSecretReferenceIdentity');
    }
    p.string(ref.secretReferenceUri, [...at, i, 'secretReferenceUri'], true);
  });
  return names;
}
