// A stored container group as the service answers it: secrets hidden, server fields filled in.
import { isObject, type JsonObject, type JsonValue } from '../../../core/json.js';
import { hideSecrets } from './container-group-secrets.js';
import { failingImage } from './container-group-rules.js';
import { doneAt, normalLocation, type StoredGroup, type StoredOperation } from './container-group-store.js';
import { LOCAL_TENANT_ID, stableIp, stableUuid } from './deterministic.js';
import { CONTAINER_GROUP_TYPE, CONTAINER_INSTANCE_NS } from './vendor.js';

export function groupId(g: Pick<StoredGroup, 'subscriptionId' | 'resourceGroup' | 'name'>): string {
  return `/subscriptions/${g.subscriptionId}/resourceGroups/${g.resourceGroup}/providers/${CONTAINER_INSTANCE_NS}/containerGroups/${g.name}`;
}

type Phase =
  { state: 'provisioning'; provisioningState: string } | { state: 'running'; since: string } | { state: 'failed'; since: string } | { state: 'deleting' };

function phaseOf(g: StoredGroup, op: StoredOperation | undefined, now: Date, provisioningMs: number): Phase {
  if (g.deletingSince) return { state: 'deleting' };
  if (!op) return { state: 'running', since: g.lastModifiedAt };
  const done = doneAt(op.startedAt, provisioningMs);
  if (now.getTime() >= done) {
    const since = new Date(done).toISOString();
    return op.kind !== 'Delete' && failingImage(g.body) ? { state: 'failed', since } : { state: 'running', since };
  }
  return { state: 'provisioning', provisioningState: op.kind === 'Create' ? 'Pending' : 'Updating' };
}

const PROVISIONING_STATE = { running: 'Succeeded', failed: 'Failed', deleting: 'Deleting' } as const;

/** The response body of a group at time `now` (or, with `justAccepted`, as a PUT answers it). */
export function renderGroup(g: StoredGroup, op: StoredOperation | undefined, now: Date, provisioningMs: number, justAccepted = false): JsonObject {
  const phase =
    justAccepted && provisioningMs > 0 && op
      ? { state: 'provisioning' as const, provisioningState: op.kind === 'Create' ? 'Pending' : 'Updating' }
      : phaseOf(g, op, now, provisioningMs);
  const body = hideSecrets(structuredClone(g.body));
  const props = isObject(body.properties) ? body.properties : {};
  const id = groupId(g);
  // Server fields last: a client may send back what it read, and the service ignores it.
  const rendered: JsonObject = { ...body, id, name: g.name, type: CONTAINER_GROUP_TYPE, properties: props };
  // ARM answers the canonical region name whatever spelling was sent ('West Europe' -> 'westeurope').
  if (typeof body.location === 'string') rendered.location = normalLocation(body.location);
  rendered.systemData = systemData(g);
  props.provisioningState = phase.state === 'provisioning' ? phase.provisioningState : PROVISIONING_STATE[phase.state];
  props.isCreatedFromStandbyPool = isObject(props.standbyPoolProfile);
  fillAddress(props, id, body.location);
  fillInstanceViews(props, phase);
  if (isObject(body.identity)) rendered.identity = fillIdentity(body.identity, id);
  return rendered;
}

function systemData(g: StoredGroup): JsonObject {
  return {
    createdBy: 'local-dev@moor.local',
    createdByType: 'User',
    createdAt: g.createdAt,
    lastModifiedBy: 'local-dev@moor.local',
    lastModifiedByType: 'User',
    lastModifiedAt: g.lastModifiedAt,
  };
}

function fillAddress(props: JsonObject, id: string, location: JsonValue | undefined): void {
  const ip = props.ipAddress;
  if (!isObject(ip)) return;
  ip.ip = stableIp(id.toLowerCase(), ip.type === 'Private');
  if (typeof ip.dnsNameLabel === 'string' && ip.dnsNameLabel !== '') {
    const region = typeof location === 'string' ? location.replace(/\s+/g, '').toLowerCase() : 'global';
    ip.fqdn = `${ip.dnsNameLabel}.${region}.azurecontainer.local`;
  }
}

function fillInstanceViews(props: JsonObject, phase: Phase): void {
  const running = phase.state === 'running';
  props.instanceView = { events: [], state: running ? 'Running' : phase.state === 'provisioning' ? 'Pending' : 'Stopped' };
  const containerView = (): JsonObject =>
    running
      ? {
          restartCount: 0,
          currentState: { state: 'Running', startTime: phase.since, detailStatus: '' },
          events: [{ count: 1, firstTimestamp: phase.since, lastTimestamp: phase.since, name: 'Started', message: 'Started container', type: 'Normal' }],
        }
      : { restartCount: 0, currentState: { state: 'Waiting', detailStatus: phase.state === 'failed' ? 'ErrImagePull' : 'ContainerCreating' }, events: [] };
  const initView = (): JsonObject =>
    running
      ? { restartCount: 0, currentState: { state: 'Terminated', exitCode: 0, detailStatus: 'Completed', finishTime: phase.since }, events: [] }
      : { restartCount: 0, currentState: { state: 'Waiting', detailStatus: 'Initializing' }, events: [] };
  for (const [list, view] of [
    [props.containers, containerView],
    [props.initContainers, initView],
  ] as const) {
    if (!Array.isArray(list)) continue;
    for (const c of list) if (isObject(c) && isObject(c.properties)) c.properties.instanceView = view();
  }
}

function fillIdentity(identity: JsonObject, id: string): JsonObject {
  const type = typeof identity.type === 'string' ? identity.type : 'None';
  if (type === 'None') return { type };
  const out: JsonObject = { ...identity, tenantId: LOCAL_TENANT_ID };
  if (type.includes('SystemAssigned')) out.principalId = stableUuid(`principal:${id.toLowerCase()}`);
  if (isObject(identity.userAssignedIdentities)) {
    const users: JsonObject = {};
    for (const key of Object.keys(identity.userAssignedIdentities)) {
      users[armIdentityKey(key)] = { clientId: stableUuid(`client:${key.toLowerCase()}`), principalId: stableUuid(`principal:${key.toLowerCase()}`) };
    }
    out.userAssignedIdentities = users;
  }
  return out;
}

/** ARM answers user-assigned identity ids with the `resourcegroups` segment in lower case, whatever was sent. */
export function armIdentityKey(id: string): string {
  return id.replace(/\/resourceGroups\//i, '/resourcegroups/');
}
