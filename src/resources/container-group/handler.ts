// How moor reads, creates, updates and deletes a ContainerGroup through the ARM client.
import { isObject, type JsonObject } from '../../core/json.js';
import { UserError } from '../../core/diagnostics.js';
import { isProvisioning, provisioningFailed, type ContainerGroupBody } from '../../providers/arm.js';
import type { KindContext, Observed, ResourceHandler } from '../../core/kind.js';
import { bodyOf, coordinatesOf, groupId, outputsOf, parseGroupId, specOf, type GroupCoordinates } from './mapping.js';
import { preflight } from './handler-preflight.js';
import { identityMismatches } from './identity.js';
import { listReader } from './handler-list.js';
import { shownValue } from '../spec-shared/spec-text.js';

/** The id from the coordinates ARM answers (its casing, not the asker's), in the seeds' namespace. */
function observed(c: GroupCoordinates, live: ContainerGroupBody): Observed {
  const answered = typeof live.id === 'string' ? parseGroupId(live.id) : undefined;
  const state = `provisioningState ${live.properties?.provisioningState}`;
  const inProgress = isProvisioning(live) ? `still provisioning (${state})` : undefined;
  const failed = provisioningFailed(live) ? `its provisioning ended ${live.properties?.provisioningState}` : undefined;
  return { id: groupId(answered ?? c), spec: specOf(c, live), outputs: outputsOf(live), ...(inProgress ? { inProgress } : {}), ...(failed ? { failed } : {}) };
}

/** The recorded ARM id wins over the spec: a changed resource group must still find the old group. */
function locate(name: string, spec: JsonObject, recordedId?: string): GroupCoordinates {
  return (recordedId ? parseGroupId(recordedId) : undefined) ?? coordinatesOf(name, spec);
}

async function put(ctx: KindContext, c: GroupCoordinates, spec: JsonObject): Promise<Observed> {
  refuseEmptySecretVolumes(c, spec);
  const live = await ctx.providers.arm.putContainerGroup(c.subscriptionId, c.resourceGroup, c.name, bodyOf(spec));
  return observed(c, live);
}

/**
 * A secret volume with no files is what moor discover writes where the service hid them: a PUT of it
 * would empty the live volume, so it is refused until the manifest lists the files.
 */
function refuseEmptySecretVolumes(c: GroupCoordinates, spec: JsonObject): void {
  const props = isObject(spec.properties) ? spec.properties : {};
  const volumes = Array.isArray(props.volumes) ? props.volumes.filter(isObject) : [];
  const empty = volumes.filter((v) => isObject(v.secret) && Object.keys(v.secret).length === 0 && !Object.hasOwn(v, 'secretReference'));
  if (empty.length > 0) {
    throw new UserError(
      `ContainerGroup/${c.name}: the secret volume ${empty.map((v) => shownValue(v.name)).join(', ')} lists no files; the write sends the whole group and would empty it: list its files (each as FILE: \${env:NAME}) first`,
    );
  }
}

export const resource: ResourceHandler = {
  nameField: 'name',
  idempotentWrites: true,
  list: listReader({ locate: (t) => locate(t.name, t.spec, t.recordedId), observed }),
  async read(ctx, { name, spec, recordedId }) {
    const c = locate(name, spec, recordedId);
    const live = await ctx.providers.arm.getContainerGroup(c.subscriptionId, c.resourceGroup, c.name);
    return live ? observed(c, live) : undefined;
  },
  create: (ctx, name, spec) => put(ctx, coordinatesOf(name, spec), spec),
  // The whole desired body, never a partial one: a left-out property would revert to its default.
  // Sent where the group is (its id): a changed name or resource group is a replace, never an
  // update, and after `state mv` an implicit spec.name (metadata.name) must not PUT a new group.
  update: (ctx, name, spec, current) => put(ctx, locate(name, spec, current.id), spec),
  async delete(ctx, id, lastSpec) {
    const c = parseGroupId(id) ?? coordinatesOf(typeof lastSpec.name === 'string' ? lastSpec.name : id, lastSpec);
    await ctx.providers.arm.deleteContainerGroup(c.subscriptionId, c.resourceGroup, c.name);
  },
  // After an interrupted apply the group may still be provisioning: followed as its own PUT would be.
  async awaitSettled(ctx, current) {
    const c = locate(typeof current.spec.name === 'string' ? current.spec.name : current.id, current.spec, current.id);
    const live = await ctx.providers.arm.awaitContainerGroup(c.subscriptionId, c.resourceGroup, c.name);
    if (!live) throw new UserError(`ContainerGroup/${c.name} was deleted outside moor while it was provisioning`);
    return observed(c, live);
  },
  preflight,
  identityMismatches,
};
