// What the service fills in on its own, and which changes an existing group cannot take in place.
import { isObject, type JsonObject, type JsonValue } from '../../../core/json.js';
import { normalLocation } from './container-group-store.js';

/** The request as stored: read-only fields dropped, the defaults the real service fills added. */
export function withServiceDefaults(body: JsonObject): JsonObject {
  // Read-only fields a client may echo from a GET are not kept.
  const { id: _id, name: _name, type: _type, systemData: _systemData, ...copy } = structuredClone(body);
  const sent: JsonObject = isObject(copy.properties) ? copy.properties : {};
  const { provisioningState: _state, instanceView: _view, isCreatedFromStandbyPool: _standby, ...props } = sent;
  props.sku ??= 'Standard';
  props.restartPolicy ??= 'Always';
  props.osType ??= 'Linux';
  copy.properties = props;
  return copy;
}

/** An image name containing this makes provisioning end in Failed (to try failure handling). */
export const FAILING_IMAGE_MARKER = 'moor-fail-provisioning';

export function failingImage(body: JsonObject): boolean {
  const list = props(body).containers;
  return (
    Array.isArray(list) &&
    list.some((c) => isObject(c) && isObject(c.properties) && typeof c.properties.image === 'string' && c.properties.image.includes(FAILING_IMAGE_MARKER))
  );
}

/** JSON with sorted keys, so equal values compare equal whatever their key order. */
function canonical(value: JsonValue | undefined): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

function props(body: JsonObject): JsonObject {
  return isObject(body.properties) ? body.properties : {};
}

function subnets(body: JsonObject): string {
  const list = props(body).subnetIds;
  return Array.isArray(list)
    ? list
        .map((s) => (isObject(s) && typeof s.id === 'string' ? s.id.toLowerCase() : ''))
        .sort()
        .join(',')
    : '';
}

function ipType(body: JsonObject): JsonValue | undefined {
  const ip = props(body).ipAddress;
  return isObject(ip) ? ip.type : undefined;
}

function resourcesByContainer(body: JsonObject): Map<string, string> {
  const list = props(body).containers;
  const map = new Map<string, string>();
  if (Array.isArray(list)) {
    for (const c of list) {
      if (isObject(c) && typeof c.name === 'string' && isObject(c.properties)) map.set(c.name, canonical(c.properties.resources));
    }
  }
  return map;
}

export interface ImmutableChange {
  /** The property as ARM names it in `target`. */
  readonly target: string;
}

/** The first property that cannot change in place, or undefined when the update is allowed. Both bodies carry defaults. */
export function immutableChange(before: JsonObject, after: JsonObject): ImmutableChange | undefined {
  const simple: [string, unknown, unknown][] = [
    ['location', normalLocation(before.location), normalLocation(after.location)],
    ['zones', canonical(before.zones), canonical(after.zones)],
    ['properties.osType', canonical(props(before).osType), canonical(props(after).osType)],
    ['properties.restartPolicy', canonical(props(before).restartPolicy), canonical(props(after).restartPolicy)],
    ['properties.subnetIds', subnets(before), subnets(after)],
    ['properties.ipAddress.type', canonical(ipType(before)), canonical(ipType(after))],
  ];
  for (const [target, a, b] of simple) if (a !== b) return { target };
  const old = resourcesByContainer(before);
  const list = props(after).containers;
  if (Array.isArray(list)) {
    for (const [i, c] of list.entries()) {
      if (!isObject(c) || typeof c.name !== 'string' || !isObject(c.properties)) continue;
      const was = old.get(c.name);
      if (was !== undefined && was !== canonical(c.properties.resources)) return { target: `properties.containers[${i}].properties.resources` };
    }
  }
  return undefined;
}
