// Asynchronous operation resources of container groups: the Azure-AsyncOperation status and the Location result.
import { ownEntry } from '../../own-entry.js';
import type { LocalRequest, LocalResponse, ServiceContext } from '../../types.js';
import { cloudError } from './cloud-error.js';
import { FAILING_IMAGE_MARKER, failingImage } from './container-group-rules.js';
import { containerGroupData, doneAt, sweepDeleted, type StoredOperation } from './container-group-store.js';
import { renderGroup } from './container-group-view.js';
import { API_VERSIONS, CONTAINER_INSTANCE_NS } from './vendor.js';

function operationPath(op: StoredOperation, kind: 'operations' | 'operationResults'): string {
  return `/subscriptions/${op.subscriptionId}/providers/${CONTAINER_INSTANCE_NS}/locations/${op.location}/${kind}/${op.id}`;
}

/** Absolute polling addresses of an operation, as real clients expect them. */
export function operationUrls(ctx: ServiceContext, op: StoredOperation): { status: string; result: string } {
  const query = `?api-version=${API_VERSIONS.containerInstance}`;
  return {
    status: `${ctx.baseUrl}${operationPath(op, 'operations')}${query}`,
    result: `${ctx.baseUrl}${operationPath(op, 'operationResults')}${query}`,
  };
}

function findOperation(req: LocalRequest, ctx: ServiceContext): StoredOperation | undefined {
  const op = ownEntry(containerGroupData(ctx.data).containerGroupOperations, req.params.operationId);
  return op?.subscriptionId.toLowerCase() === req.params.subscriptionId.toLowerCase() ? op : undefined;
}

function operationNotFound(req: LocalRequest): LocalResponse {
  return cloudError(404, 'OperationNotFound', `The operation '${req.params.operationId}' was not found.`);
}

/** `{id, name, status, startTime, endTime?}`: InProgress until the work is done, then Succeeded. */
export function getOperationStatus(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const op = findOperation(req, ctx);
  if (!op) return operationNotFound(req);
  const ms = ctx.provisioningMs ?? 0;
  const end = doneAt(op.startedAt, ms);
  const done = ctx.now().getTime() >= end;
  const failed = done && operationFailed(op, ctx);
  const body = {
    id: operationPath(op, 'operations'),
    name: op.id,
    status: failed ? 'Failed' : done ? 'Succeeded' : 'InProgress',
    startTime: op.startedAt,
    ...(done ? { endTime: new Date(end).toISOString() } : {}),
    ...(failed
      ? {
          error: {
            code: 'ContainerGroupProvisioningFailed',
            message: `Failed to pull an image of the container group: the image cannot be found (local cloud: images containing '${FAILING_IMAGE_MARKER}' always fail).`,
          },
        }
      : {}),
  };
  return { status: 200, headers: done ? undefined : { 'Retry-After': '1' }, body };
}

function operationFailed(op: StoredOperation, ctx: ServiceContext): boolean {
  if (op.kind === 'Delete') return false;
  const group = containerGroupData(ctx.data).containerGroups[op.groupKey];
  return group?.operationId === op.id && failingImage(group.body);
}

/** The Location of a DELETE: 202 until done, then 204 (or 200 with the group for a create or update). */
export function getOperationResult(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const op = findOperation(req, ctx);
  if (!op) return operationNotFound(req);
  const ms = ctx.provisioningMs ?? 0;
  const now = ctx.now();
  if (now.getTime() < doneAt(op.startedAt, ms)) {
    const self = `${ctx.baseUrl}${req.url.pathname}${req.url.search}`;
    return { status: 202, headers: { Location: self, 'Retry-After': '1' } };
  }
  const d = containerGroupData(ctx.data);
  if (sweepDeleted(d, now, ms)) ctx.save();
  const group = op.kind === 'Delete' ? undefined : d.containerGroups[op.groupKey];
  if (!group) return { status: 204 };
  return { status: 200, body: renderGroup(group, d.containerGroupOperations[group.operationId], now, ms) };
}
