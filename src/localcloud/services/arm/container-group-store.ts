// Where container groups and their asynchronous operations live in ARM's data, and their timing.
import type { JsonObject } from '../../../core/json.js';

export type OperationKind = 'Create' | 'Update' | 'Delete';

export interface StoredOperation {
  readonly id: string;
  readonly kind: OperationKind;
  readonly groupKey: string;
  readonly subscriptionId: string;
  readonly location: string;
  readonly startedAt: string;
}

export interface StoredGroup {
  readonly subscriptionId: string;
  readonly resourceGroup: string;
  readonly name: string;
  /** The request as accepted, with the service's defaults filled in; secrets kept (only responses hide them). */
  body: JsonObject;
  readonly createdAt: string;
  lastModifiedAt: string;
  /** The latest create or update. */
  operationId: string;
  deletingSince?: string;
  deleteOperationId?: string;
}

/** Both are looked up by keys that may be absent (a group not created, an operation pruned). */
export interface ContainerGroupData {
  containerGroups: Partial<Record<string, StoredGroup>>;
  containerGroupOperations: Partial<Record<string, StoredOperation>>;
}

/** The container group part of ARM's data, created on first use. */
export function containerGroupData(data: Record<string, unknown>): ContainerGroupData {
  data.containerGroups ??= {};
  data.containerGroupOperations ??= {};
  return data as unknown as ContainerGroupData;
}

/** ARM names are case-insensitive: one key per subscription, resource group and name. */
export function groupKey(subscriptionId: string, resourceGroup: string, name: string): string {
  return `${subscriptionId}/${resourceGroup}/${name}`.toLowerCase();
}

/** 'West Europe' and 'westeurope' are the same region. */
export function normalLocation(location: unknown): string {
  return typeof location === 'string' && location.trim() !== '' ? location.replace(/\s+/g, '').toLowerCase() : 'global';
}

/** When an operation started at `startedAt` is done; work is computed from timestamps, so it survives restarts. */
export function doneAt(startedAt: string, provisioningMs: number): number {
  return Date.parse(startedAt) + provisioningMs;
}

export function isDone(startedAt: string, now: Date, provisioningMs: number): boolean {
  return now.getTime() >= doneAt(startedAt, provisioningMs);
}

/**
 * Lookups kept beside the data (never persisted, rebuilt on first use), so that a benchmark
 * of thousands of groups does not scan them all on every request.
 */
interface Index {
  readonly deleting: Set<string>;
  readonly byQuota: Map<string, Set<string>>;
  /** A resource group's name as first written (ARM keeps one casing per group), by its lower-case key. */
  readonly resourceGroups: Map<string, string>;
  /** The keys of the groups in each subscription (lower case), by resource group (lower case): a list costs what it returns. */
  readonly listed: Map<string, Map<string, Set<string>>>;
}

const indexes = new WeakMap<ContainerGroupData, Index>();

function quotaKey(g: StoredGroup): string {
  return `${g.subscriptionId.toLowerCase()}|${normalLocation(g.body.location)}`;
}

function indexOf(d: ContainerGroupData): Index {
  let index = indexes.get(d);
  if (!index) {
    index = { deleting: new Set(), byQuota: new Map(), resourceGroups: new Map(), listed: new Map() };
    for (const [key, g] of Object.entries(d.containerGroups)) {
      if (!g) continue;
      if (g.deletingSince) index.deleting.add(key);
      addToQuota(index, key, g);
      addResourceGroup(index, key, g);
    }
    indexes.set(d, index);
  }
  return index;
}

function addToQuota(index: Index, key: string, g: StoredGroup): void {
  const qk = quotaKey(g);
  let keys = index.byQuota.get(qk);
  if (!keys) index.byQuota.set(qk, (keys = new Set()));
  keys.add(key);
}

function resourceGroupKey(subscriptionId: string, resourceGroup: string): string {
  return `${subscriptionId}/${resourceGroup}`.toLowerCase();
}

function addResourceGroup(index: Index, key: string, g: StoredGroup): void {
  const rgKey = resourceGroupKey(g.subscriptionId, g.resourceGroup);
  if (!index.resourceGroups.has(rgKey)) index.resourceGroups.set(rgKey, g.resourceGroup);
  const sub = g.subscriptionId.toLowerCase();
  let groups = index.listed.get(sub);
  if (!groups) index.listed.set(sub, (groups = new Map<string, Set<string>>()));
  const rg = g.resourceGroup.toLowerCase();
  let keys = groups.get(rg);
  if (!keys) groups.set(rg, (keys = new Set()));
  keys.add(key);
}

function removeFromListed(index: Index, key: string, g: StoredGroup): void {
  const groups = index.listed.get(g.subscriptionId.toLowerCase());
  const rg = g.resourceGroup.toLowerCase();
  const keys = groups?.get(rg);
  if (!groups || !keys) return;
  keys.delete(key);
  if (keys.size === 0) groups.delete(rg);
}

/**
 * The groups of a subscription, or of one of its resource groups, in the order a list gives
 * them (resource group, then name): read from the index, so a list costs what it returns.
 */
export function groupsListed(d: ContainerGroupData, subscriptionId: string, resourceGroup?: string): StoredGroup[] {
  const groups = indexOf(d).listed.get(subscriptionId.toLowerCase());
  if (!groups) return [];
  const sets = resourceGroup === undefined ? [...groups.values()] : [groups.get(resourceGroup.toLowerCase()) ?? new Set<string>()];
  const found = sets.flatMap((keys) => [...keys].flatMap((k) => d.containerGroups[k] ?? []));
  return found.sort((a, b) => (a.resourceGroup + '/' + a.name).localeCompare(b.resourceGroup + '/' + b.name));
}

/**
 * The resource group's name as ARM spells it: as it was first written, whatever casing a later
 * request uses (ids in answers carry it, so a client may see other casing than it sent).
 */
export function resourceGroupAsKnown(d: ContainerGroupData, subscriptionId: string, resourceGroup: string): string {
  return indexOf(d).resourceGroups.get(resourceGroupKey(subscriptionId, resourceGroup)) ?? resourceGroup;
}

/** Stores a created or updated group (its subscription and location never change). */
export function putGroup(d: ContainerGroupData, key: string, g: StoredGroup): void {
  d.containerGroups[key] = g;
  const index = indexOf(d);
  addToQuota(index, key, g);
  addResourceGroup(index, key, g);
}

export function removeGroup(d: ContainerGroupData, key: string): void {
  const g = d.containerGroups[key];
  if (!g) return;
  const index = indexOf(d);
  index.deleting.delete(key);
  index.byQuota.get(quotaKey(g))?.delete(key);
  removeFromListed(index, key, g);
  Reflect.deleteProperty(d.containerGroups, key); // a key of a stored group
}

export function markDeleting(d: ContainerGroupData, key: string, op: StoredOperation): void {
  const g = d.containerGroups[key];
  if (!g) return;
  g.deletingSince = op.startedAt;
  g.deleteOperationId = op.id;
  indexOf(d).deleting.add(key);
}

/** Removes groups whose deletion has finished; returns whether anything changed. */
export function sweepDeleted(d: ContainerGroupData, now: Date, provisioningMs: number): boolean {
  let changed = false;
  for (const key of [...indexOf(d).deleting]) {
    const since = d.containerGroups[key]?.deletingSince;
    if (!since || isDone(since, now, provisioningMs)) {
      removeGroup(d, key);
      indexOf(d).deleting.delete(key);
      changed = true;
    }
  }
  return changed;
}

/** Groups that hold quota in a subscription and location (a group being deleted still does). */
export function groupsIn(d: ContainerGroupData, subscriptionId: string, location: string): StoredGroup[] {
  const keys = indexOf(d).byQuota.get(`${subscriptionId.toLowerCase()}|${normalLocation(location)}`) ?? new Set<string>();
  return [...keys].flatMap((k) => d.containerGroups[k] ?? []);
}
