// Container group profiles, declared in fixtures: a group created from one (with a standby pool)
// sends containers with only a name and a configMap; the profile holds their images and resources.
import { isObject, type JsonObject } from '../../../core/json.js';
import { asSent } from '../../as-sent.js';
import { ownEntry } from '../../own-entry.js';
import type { LocalResponse } from '../../types.js';
import { cloudError } from './cloud-error.js';

export interface ProfileContainer {
  readonly name: string;
  readonly image: string;
  readonly cpu: number;
  readonly memoryInGB: number;
}

export interface ProfileRecord {
  /** The profile's resource id as declared. */
  readonly id: string;
  /** The latest revision: a group may name any revision from 1 to it. */
  readonly revision: number;
  readonly containers: readonly ProfileContainer[];
}

/** The declared profiles of ARM's data by id in lower case (ARM compares ids ignoring case). */
export function declaredProfiles(data: Record<string, unknown>): Record<string, ProfileRecord> {
  data.containerGroupProfiles ??= {};
  return data.containerGroupProfiles as Record<string, ProfileRecord>;
}

export function profileKey(id: string): string {
  return id.toLowerCase();
}

/**
 * A refusal when the body names a profile, or a revision of it, that is not declared, or a
 * container the profile does not define; undefined when the group uses no profile or a known one.
 */
export function refuseProfile(data: Record<string, unknown>, body: JsonObject): LocalResponse | undefined {
  const props = isObject(body.properties) ? body.properties : {};
  const ref = props.containerGroupProfile;
  if (!isObject(ref) || typeof ref.id !== 'string') return undefined;
  const profile = ownEntry(declaredProfiles(data), profileKey(ref.id));
  const revision = typeof ref.revision === 'number' ? ref.revision : undefined;
  if (!profile || (revision !== undefined && (revision < 1 || revision > profile.revision))) {
    const which = revision === undefined ? `'${ref.id}'` : `'${ref.id}' (revision ${revision})`;
    return cloudError(400, 'ContainerGroupProfileNotFound', `The container group profile ${which} was not found.`, 'properties.containerGroupProfile.id');
  }
  const containers = Array.isArray(props.containers) ? props.containers : [];
  const index = containers.findIndex((c) => isObject(c) && !profile.containers.some((p) => p.name === c.name));
  if (index < 0) return undefined;
  const name = asSent((containers[index] as JsonObject).name);
  return cloudError(
    400,
    'InvalidRequestContent',
    `The container '${name}' is not defined by the container group profile '${profile.id}'.`,
    `properties.containers[${index}].name`,
  );
}
