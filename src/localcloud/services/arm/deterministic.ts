// Stable made-up values (ids, addresses) derived from a seed string, so restarts give the same answers.
import { createHash } from 'node:crypto';

function digest(seed: string): Buffer {
  return createHash('sha256').update(seed).digest();
}

/** A version-4-shaped UUID derived from the seed. */
export function stableUuid(seed: string): string {
  const h = digest(seed).toString('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A public-looking (20.x.y.z) or private (10.0.y.z) IPv4 address derived from the seed. */
export function stableIp(seed: string, isPrivate: boolean): string {
  const b = digest(seed);
  return isPrivate ? `10.0.${b[0]}.${1 + (b[1] % 253)}` : `20.${b[0]}.${b[1]}.${1 + (b[2] % 253)}`;
}

/** The tenant every local identity belongs to. */
export const LOCAL_TENANT_ID = stableUuid('moor-local-tenant');
