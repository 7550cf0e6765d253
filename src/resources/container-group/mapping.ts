// Maps a container-group spec to ARM coordinates and bodies, and an ARM response back to the spec shape.
import { UserError } from '../../core/diagnostics.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { containerGroupId, type ContainerGroupBody } from '../../providers/arm.js';

/** Where a container group lives. */
export interface GroupCoordinates {
  readonly subscriptionId: string;
  readonly resourceGroup: string;
  readonly name: string;
}

const BODY_FIELDS = ['location', 'tags', 'zones', 'identity', 'properties'] as const;
const ARM_ID = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/[^/]+\.ContainerInstance\/containerGroups\/([^/]+)$/i;

/** Coordinates from the spec: `spec.name` defaults to the manifest name. */
export function coordinatesOf(name: string, spec: JsonObject): GroupCoordinates {
  const { subscriptionId, resourceGroup } = spec;
  if (typeof subscriptionId !== 'string' || typeof resourceGroup !== 'string') {
    throw new UserError(`ContainerGroup/${name}: spec.subscriptionId and spec.resourceGroup are required`);
  }
  return { subscriptionId, resourceGroup, name: typeof spec.name === 'string' ? spec.name : name };
}

/** Coordinates from an ARM id, or undefined when it is not a container group id. */
export function parseGroupId(id: string): GroupCoordinates | undefined {
  const m = ARM_ID.exec(id);
  if (!m) return undefined;
  return { subscriptionId: decodeURIComponent(m[1]), resourceGroup: decodeURIComponent(m[2]), name: decodeURIComponent(m[3]) };
}

export function groupId(c: GroupCoordinates): string {
  return containerGroupId(c.subscriptionId, c.resourceGroup, c.name);
}

/** The whole desired body: PUT replaces the resource, so nothing set may be left out. */
export function bodyOf(spec: JsonObject): ContainerGroupBody {
  const body: Record<string, unknown> = {};
  for (const field of BODY_FIELDS) if (Object.hasOwn(spec, field)) body[field] = spec[field];
  return body;
}

/**
 * The live group in the spec's shape (addressing fields included; absent fields left out).
 * Addressing comes from the id ARM answers, in ARM's casing (the diff compares it ignoring case).
 */
export function specOf(c: GroupCoordinates, live: ContainerGroupBody): JsonObject {
  const answered = typeof live.id === 'string' ? parseGroupId(live.id) : undefined;
  const at = answered ?? c;
  const spec: JsonObject = { subscriptionId: at.subscriptionId, resourceGroup: at.resourceGroup, name: live.name ?? at.name };
  for (const field of BODY_FIELDS) {
    const value: unknown = live[field]; // the service's JSON: a field may be null
    if (value !== undefined && value !== null) spec[field] = value as JsonObject[string];
  }
  return spec;
}

/** The service's representation as outputs (what ${ref:} reads). */
export function outputsOf(live: ContainerGroupBody): JsonObject {
  return isObject(live) ? live : {};
}
