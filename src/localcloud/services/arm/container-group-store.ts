// Where container groups and their asynchronous operations live in ARM's data, and their timing.
import type { JsonObject } from '../../../engine/json.js';

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

export interface ContainerGroupData {
  containerGroups: Record<string, StoredGroup>;
  containerGroupOperations: Record<string, StoredOperation>;
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

/** Removes groups whose deletion has finished; returns whether anything changed. */
export function sweepDeleted(d: ContainerGroupData, now: Date, provisioningMs: number): boolean {
  let changed = false;
  for (const [key, group] of Object.entries(d.containerGroups)) {
    if (group.deletingSince && isDone(group.deletingSince, now, provisioningMs)) {
      delete d.containerGroups[key];
      changed = true;
    }
  }
  return changed;
}

/** Groups that hold quota in a subscription and location (a group being deleted still does). */
export function groupsIn(d: ContainerGroupData, subscriptionId: string, location: string): StoredGroup[] {
  const sub = subscriptionId.toLowerCase();
  const loc = normalLocation(location);
  return Object.values(d.containerGroups).filter((g) => g.subscriptionId.toLowerCase() === sub && normalLocation(g.body.location) === loc);
}
