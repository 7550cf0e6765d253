// Whether a container group read by an ARM id is the one a manifest describes. ARM compares
// subscriptions, resource group names and group names case-insensitively, and so does this.
import type { JsonObject } from '../../core/json.js';
import type { Observed } from '../../core/kind.js';
import { coordinatesOf, parseGroupId, type GroupCoordinates } from './mapping.js';

const PARTS: readonly [keyof GroupCoordinates, string][] = [
  ['subscriptionId', 'subscription'],
  ['resourceGroup', 'resource group'],
  ['name', 'name'],
];

export function identityMismatches(target: { name: string; spec: JsonObject; id: string }, observed: Observed): string[] {
  const given = parseGroupId(target.id);
  if (!given) return [`it is not a container group id (/subscriptions/SUB/resourceGroups/RG/providers/Vendor.ContainerInstance/containerGroups/NAME)`];
  const wanted = coordinatesOf(target.name, target.spec);
  const found = parseGroupId(observed.id) ?? given;
  return PARTS.filter(([key]) => found[key].toLowerCase() !== wanted[key].toLowerCase()).map(
    ([key, label]) => `its ${label} is ${found[key]}, the manifest's is ${wanted[key]}`,
  );
}
