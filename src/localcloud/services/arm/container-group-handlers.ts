// PUT, GET, DELETE and list of container groups (as README.md in src/localcloud describes them).
import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../../../core/json.js';
import type { LocalRequest, LocalResponse, ServiceContext } from '../../types.js';
import { checkApiVersion } from './api-version.js';
import { cloudError, validationFailure } from './cloud-error.js';
import { immutableChange, withServiceDefaults } from './container-group-rules.js';
import {
  containerGroupData,
  doneAt,
  groupKey,
  isDone,
  groupsIn,
  groupsListed,
  markDeleting,
  normalLocation,
  putGroup,
  removeGroup,
  resourceGroupAsKnown,
  sweepDeleted,
  type ContainerGroupData,
  type OperationKind,
  type StoredGroup,
  type StoredOperation,
} from './container-group-store.js';
import { checkAddress, validateContainerGroup } from './container-group-validation.js';
import { refuseProfile } from './container-group-profiles.js';
import { renderGroup } from './container-group-view.js';
import { operationUrls } from './container-group-operations.js';
import { pageOf } from './paging.js';
import { quotasFor } from './quotas.js';
import { Problems } from './validation-kit.js';
import { API_VERSIONS, CONTAINER_GROUP_TYPE } from './vendor.js';

const LIST_PAGE_SIZE = 50;
const MAX_OPERATIONS = 5000;

interface Prepared {
  d: ContainerGroupData;
  ms: number;
  now: Date;
}

/** api-version, address checks and finished deletions swept; a response when the request stops here. */
function prepare(req: LocalRequest, ctx: ServiceContext): Prepared | LocalResponse {
  const bad = checkApiVersion(req, API_VERSIONS.containerInstance);
  if (bad) return bad;
  const p = new Problems();
  checkAddress(p, { subscriptionId: req.params.subscriptionId, resourceGroup: req.params.resourceGroupName });
  if (p.list.length > 0) return validationFailure(p.list);
  const d = containerGroupData(ctx.data);
  const ms = ctx.provisioningMs ?? 0;
  const now = ctx.now();
  if (sweepDeleted(d, now, ms)) ctx.save();
  return { d, ms, now };
}

function isResponse(x: Prepared | LocalResponse): x is LocalResponse {
  return 'status' in x;
}

function notFound(req: LocalRequest): LocalResponse {
  return cloudError(
    404,
    'ResourceNotFound',
    `The Resource '${CONTAINER_GROUP_TYPE}/${req.params.containerGroupName}' under resource group '${req.params.resourceGroupName}' was not found.`,
  );
}

function startOperation(d: ContainerGroupData, kind: OperationKind, key: string, group: StoredGroup, now: Date): StoredOperation {
  const op: StoredOperation = {
    id: randomUUID(),
    kind,
    groupKey: key,
    subscriptionId: group.subscriptionId,
    location: normalLocation(group.body.location),
    startedAt: now.toISOString(),
  };
  d.containerGroupOperations[op.id] = op;
  pruneOperations(d);
  return op;
}

/** Keeps the newest operations only (insertion order is age), so the data file does not grow forever. */
function pruneOperations(d: ContainerGroupData): void {
  const ids = Object.keys(d.containerGroupOperations);
  for (const id of ids.slice(0, Math.max(0, ids.length - MAX_OPERATIONS))) Reflect.deleteProperty(d.containerGroupOperations, id); // a stored id
}

function retryAfter(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}

export function putContainerGroup(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const prep = prepare(req, ctx);
  if (isResponse(prep)) return prep;
  const { d, ms, now } = prep;
  const address = { subscriptionId: req.params.subscriptionId, resourceGroup: req.params.resourceGroupName, name: req.params.containerGroupName };
  const problems = validateContainerGroup(address, req.body);
  if (problems.length > 0) return validationFailure(problems);
  const key = groupKey(address.subscriptionId, address.resourceGroup, address.name);
  const existing = d.containerGroups[key];
  if (existing?.deletingSince) {
    return cloudError(409, 'ConflictingOperation', `The container group '${address.name}' is being deleted; retry once the deletion has finished.`);
  }
  const running = existing ? runningOperation(d, existing, now, ms) : undefined;
  if (running) return anotherOperationInProgress(address.name, running, ms);
  const body = withServiceDefaults(req.body as JsonObject);
  const unknownProfile = refuseProfile(ctx.data, body);
  if (unknownProfile) return unknownProfile;
  const refused = existing
    ? refuseUpdate(existing, body)
    : refuseCreate(d, address.subscriptionId, body, quotasFor(ctx.data, address.subscriptionId, body.location).containerGroups);
  if (refused) return refused;
  const group: StoredGroup = existing ?? {
    ...address,
    resourceGroup: resourceGroupAsKnown(d, address.subscriptionId, address.resourceGroup),
    body,
    createdAt: now.toISOString(),
    lastModifiedAt: now.toISOString(),
    operationId: '',
  };
  group.body = body;
  group.lastModifiedAt = now.toISOString();
  const op = startOperation(d, existing ? 'Update' : 'Create', key, group, now);
  group.operationId = op.id;
  putGroup(d, key, group);
  ctx.save();
  const headers = ms > 0 ? { 'Azure-AsyncOperation': operationUrls(ctx, op).status, 'Retry-After': retryAfter(ms) } : undefined;
  return { status: existing ? 200 : 201, headers, body: renderGroup(group, op, now, ms, true) };
}

/** The create or update of the group that is still running, if any. */
function runningOperation(d: ContainerGroupData, group: StoredGroup, now: Date, ms: number): StoredOperation | undefined {
  const op = d.containerGroupOperations[group.operationId];
  return op && !isDone(op.startedAt, now, ms) ? op : undefined;
}

/** As ARM answers a write while the group is still provisioning; Retry-After as an HTTP date, as ARM sometimes sends it. */
function anotherOperationInProgress(name: string, running: StoredOperation, ms: number): LocalResponse {
  const state = running.kind === 'Create' ? 'Creating' : 'Updating';
  const refused = cloudError(
    409,
    'AnotherOperationInProgress',
    `Another operation on container group '${name}' is in progress (${state}); wait until it has finished and send the request again.`,
  );
  // Rounded up to the next whole second, so the date is never before the operation ends.
  const endsAt = Math.ceil(doneAt(running.startedAt, ms) / 1000) * 1000;
  return { ...refused, headers: { ...refused.headers, 'Retry-After': new Date(endsAt).toUTCString() } };
}

function refuseUpdate(existing: StoredGroup, body: JsonObject): LocalResponse | undefined {
  const change = immutableChange(existing.body, body);
  if (!change) return undefined;
  return cloudError(
    409,
    'ContainerGroupUpdateNotAllowed',
    `The property '${change.target}' of container group '${existing.name}' cannot be updated; delete the container group and create it again.`,
    change.target,
  );
}

function refuseCreate(d: ContainerGroupData, subscriptionId: string, body: JsonObject, quota: number): LocalResponse | undefined {
  const location = normalLocation(body.location);
  if (groupsIn(d, subscriptionId, location).length < quota) return undefined;
  return cloudError(
    409,
    'ContainerGroupQuotaReached',
    `The container group quota of ${quota} in location '${location}' of subscription '${subscriptionId}' is reached.`,
  );
}

export function getContainerGroup(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const prep = prepare(req, ctx);
  if (isResponse(prep)) return prep;
  const key = groupKey(req.params.subscriptionId, req.params.resourceGroupName, req.params.containerGroupName);
  const group = prep.d.containerGroups[key];
  if (!group) return notFound(req);
  return { status: 200, body: renderGroup(group, prep.d.containerGroupOperations[group.operationId], prep.now, prep.ms) };
}

export function deleteContainerGroup(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const prep = prepare(req, ctx);
  if (isResponse(prep)) return prep;
  const { d, ms, now } = prep;
  const key = groupKey(req.params.subscriptionId, req.params.resourceGroupName, req.params.containerGroupName);
  const group = d.containerGroups[key];
  if (!group) return { status: 204 };
  if (ms === 0) {
    const body = renderGroup(group, d.containerGroupOperations[group.operationId], now, ms);
    removeGroup(d, key);
    ctx.save();
    return { status: 200, body };
  }
  let op = group.deleteOperationId ? d.containerGroupOperations[group.deleteOperationId] : undefined;
  if (!op) {
    op = startOperation(d, 'Delete', key, group, now);
    markDeleting(d, key, op);
    ctx.save();
  }
  const urls = operationUrls(ctx, op);
  // Location only, as the real service answers a delete: clients poll the result URL.
  return { status: 202, headers: { Location: urls.result, 'Retry-After': retryAfter(ms) } };
}

export function listContainerGroups(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const prep = prepare(req, ctx);
  if (isResponse(prep)) return prep;
  const groups = groupsListed(prep.d, req.params.subscriptionId, req.params.resourceGroupName);
  const page = pageOf(groups, req, ctx, LIST_PAGE_SIZE);
  const value = page.value.map((g) => withoutInstanceViews(renderGroup(g, prep.d.containerGroupOperations[g.operationId], prep.now, prep.ms)));
  return { status: 200, body: { value, ...(page.nextLink ? { nextLink: page.nextLink } : {}) } };
}

/** The real service lists each group's full properties except the instance views (SERVICES.md). */
function withoutInstanceViews(body: JsonObject): JsonObject {
  const props = body.properties as JsonObject;
  delete props.instanceView;
  for (const list of [props.containers, props.initContainers]) {
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      const cp = (c as JsonObject | null)?.properties;
      if (cp && typeof cp === 'object' && !Array.isArray(cp)) delete cp.instanceView;
    }
  }
  return body;
}
