// The ARM client: container groups (with long-running operations), usage per location, name availability.
import { DEFAULT_API_SETTINGS, type ApiSettings } from './api-settings.js';
import { expectArray, expectBoolean, expectObject, expectSame, expectString, invalidAnswer, optionalObject } from './answer-shape.js';
import { followOperation, type PollOptions } from './long-running.js';
import { sendAfterRunningOperation } from './arm-running-operation.js';
import { listByNextLink } from './paging.js';
import type { RequestSender, TransportResponse } from './transport.js';
import type { ContainerGroupBody, NameAvailability, Usage } from './arm-types.js';

export type { ContainerGroupBody, NameAvailability, Usage } from './arm-types.js';

const enc = encodeURIComponent;

/** The ARM id of a container group. */
export function containerGroupId(
  subscriptionId: string,
  resourceGroup: string,
  name: string,
  namespace = DEFAULT_API_SETTINGS.containerInstance.namespace,
): string {
  return `/subscriptions/${enc(subscriptionId)}/resourceGroups/${enc(resourceGroup)}/providers/${namespace}/containerGroups/${enc(name)}`;
}

export class ArmClient {
  constructor(
    private readonly t: RequestSender,
    private readonly poll: PollOptions = {},
    private readonly apis: Pick<ApiSettings, 'containerInstance' | 'sql'> = DEFAULT_API_SETTINGS,
  ) {}

  private groupPath(sub: string, rg: string, name: string): string {
    const ci = this.apis.containerInstance;
    return `${containerGroupId(sub, rg, name, ci.namespace)}?api-version=${enc(ci.apiVersion)}`;
  }

  /** The container group, or undefined when it does not exist. */
  async getContainerGroup(sub: string, rg: string, name: string): Promise<ContainerGroupBody | undefined> {
    const res = await this.t.request({ method: 'GET', path: this.groupPath(sub, rg, name), label: `containerGroups/${name}`, accept: [404] });
    return res.status === 404 ? undefined : liveGroupOf(res, name);
  }

  /** Every container group of a resource group (all pages: nextLink); each body lacks instanceView, as the service lists them. */
  listContainerGroups(sub: string, rg: string): Promise<ContainerGroupBody[]> {
    const ci = this.apis.containerInstance;
    const path = `/subscriptions/${enc(sub)}/resourceGroups/${enc(rg)}/providers/${ci.namespace}/containerGroups?api-version=${enc(ci.apiVersion)}`;
    return listByNextLink<ContainerGroupBody>(this.t, { method: 'GET', path, label: `containerGroups in ${rg}` }, checkListedGroup);
  }

  /** Every container group of a subscription, across its resource groups (all pages: nextLink). */
  listSubscriptionContainerGroups(sub: string): Promise<ContainerGroupBody[]> {
    const ci = this.apis.containerInstance;
    const path = `/subscriptions/${enc(sub)}/providers/${ci.namespace}/containerGroups?api-version=${enc(ci.apiVersion)}`;
    return listByNextLink<ContainerGroupBody>(this.t, { method: 'GET', path, label: `containerGroups in subscription ${sub}` }, checkListedGroup);
  }

  /** Creates or replaces the whole group, waits for a terminal state, and returns the final resource. */
  async putContainerGroup(sub: string, rg: string, name: string, body: ContainerGroupBody): Promise<ContainerGroupBody> {
    const path = this.groupPath(sub, rg, name);
    const label = `containerGroups/${name}`;
    const first = await sendAfterRunningOperation(this.t, { method: 'PUT', path, body, label }, path, this.poll);
    // A PUT answers the group (200/201) or nothing (202 with an operation to follow).
    if (first.body !== undefined) groupOf(first, name);
    const last = await followOperation(this.t, { method: 'PUT', resourcePath: path, label, resourceFirst: true }, first, this.poll);
    // A final body from polling is taken only when it names the group; otherwise the checked GET decides.
    if (isSucceeded(last) && isNamed(last, name)) return last as ContainerGroupBody;
    const final = await this.t.request({ method: 'GET', path, label });
    return groupOf(final, name);
  }

  /**
   * Follows a group whose last write the service is still carrying out (provisioningState not
   * terminal) until it ends, as a PUT is followed; returns the final group, throws when it ended
   * Failed or Canceled, undefined when the group is gone.
   */
  async awaitContainerGroup(sub: string, rg: string, name: string): Promise<ContainerGroupBody | undefined> {
    const path = this.groupPath(sub, rg, name);
    const label = `containerGroups/${name}`;
    const current = await this.t.request({ method: 'GET', path, label, accept: [404] });
    if (current.status === 404) return undefined;
    groupOf(current, name);
    const last = await followOperation(this.t, { method: 'PUT', resourcePath: path, label }, current, this.poll);
    return liveGroupOf({ ...current, body: last ?? current.body }, name);
  }

  /** Deletes the group and waits until it is gone; a missing group is success. */
  async deleteContainerGroup(sub: string, rg: string, name: string): Promise<void> {
    const path = this.groupPath(sub, rg, name);
    const label = `containerGroups/${name}`;
    const first = await this.t.request({ method: 'DELETE', path, label, accept: [404] });
    if (first.status === 202) await followOperation(this.t, { method: 'DELETE', resourcePath: path, label, goneIsDone: true }, first, this.poll);
  }

  /** Every usage entry of a location (all pages). */
  listUsage(sub: string, location: string): Promise<Usage[]> {
    const ci = this.apis.containerInstance;
    const path = `/subscriptions/${enc(sub)}/providers/${ci.namespace}/locations/${enc(location)}/usages?api-version=${enc(ci.apiVersion)}`;
    return listByNextLink<Usage>(this.t, { method: 'GET', path, label: `usages/${location}` }, checkUsage);
  }

  /** Whether a server name can be used; a pure read, so it is retried like a GET. */
  async checkNameAvailability(sub: string, name: string, type = `${this.apis.sql.namespace}/servers`): Promise<NameAvailability> {
    const path = `/subscriptions/${enc(sub)}/providers/${this.apis.sql.namespace}/checkNameAvailability?api-version=${enc(this.apis.sql.apiVersion)}`;
    const res = await this.t.request({ method: 'POST', path, body: { name, type }, idempotent: true, label: 'checkNameAvailability' });
    expectBoolean(res, expectObject(res, res.body, 'a name availability'), 'available');
    return res.body as NameAvailability;
  }
}

/** The body as a container group: an object named as asked (ARM names compare without case). */
function groupOf(res: TransportResponse, name: string): ContainerGroupBody {
  const body = expectObject(res, res.body, 'a container group');
  expectSame(res, 'name', expectString(res, body, 'name'), name, true);
  optionalObject(res, body, 'properties');
  return body;
}

/** A read for a diff also needs the location and containers: a group without them would plan a replace. */
function liveGroupOf(res: TransportResponse, name: string): ContainerGroupBody {
  const body = groupOf(res, name);
  expectString(res, body, 'location');
  expectArray(res, expectObject(res, body.properties, "a container group's properties"), 'containers');
  return body;
}

/** A listed group feeds the diff as a GET does: it needs its name, location and containers too. */
function checkListedGroup(g: unknown, page: TransportResponse, i: number): void {
  const o = g as { name?: unknown; location?: unknown; properties?: { containers?: unknown } | null } | null;
  const ok =
    typeof o === 'object' &&
    o !== null &&
    typeof o.name === 'string' &&
    typeof o.location === 'string' &&
    typeof o.properties === 'object' &&
    o.properties !== null &&
    Array.isArray(o.properties.containers);
  if (!ok) throw invalidAnswer(page, `container group #${i + 1} of the list lacks its name, location or properties.containers`);
}

/** A usage entry: name.value, currentValue and limit, all read by quota checks. */
function checkUsage(u: unknown, page: TransportResponse, i: number): void {
  const o = u as { name?: { value?: unknown }; currentValue?: unknown; limit?: unknown } | null;
  const ok = typeof o === 'object' && o !== null && typeof o.name?.value === 'string' && typeof o.currentValue === 'number' && typeof o.limit === 'number';
  if (!ok) throw invalidAnswer(page, `usage entry #${i + 1} lacks name.value, currentValue or limit`);
}

function isNamed(body: unknown, name: string): boolean {
  const n = (body as ContainerGroupBody | undefined)?.name;
  return typeof n === 'string' && n.toLowerCase() === name.toLowerCase();
}

/** Whether ARM is still carrying out a write of the group: its provisioningState is not terminal. */
export function isProvisioning(body: ContainerGroupBody): boolean {
  const state = body.properties?.provisioningState;
  return typeof state === 'string' && !TERMINAL_STATES.has(state.toLowerCase());
}

/** Whether ARM ended the group's last write Failed or Canceled. */
export function provisioningFailed(body: ContainerGroupBody): boolean {
  const state = body.properties?.provisioningState;
  return typeof state === 'string' && TERMINAL_STATES.has(state.toLowerCase()) && state.toLowerCase() !== 'succeeded';
}

const TERMINAL_STATES = new Set(['succeeded', 'failed', 'canceled', 'cancelled']);

function isSucceeded(body: unknown): boolean {
  const state = (body as ContainerGroupBody | undefined)?.properties?.provisioningState;
  return typeof state === 'string' && state.toLowerCase() === 'succeeded';
}
