// The container-group quota preflight: planned creates per subscription and location against usage.
import type { JsonObject } from '../../core/json.js';
import { canonicalLocation } from '../../core/normalize.js';
import type { KindContext } from '../../core/kind.js';

const QUOTA_NAME = 'containergroups';

interface Bucket {
  readonly subscriptionId: string;
  readonly location: string;
  readonly addresses: string[];
}

function bucketsOf(creates: readonly { address: string; spec: JsonObject }[]): Bucket[] {
  const buckets = new Map<string, Bucket>();
  for (const { address, spec } of creates) {
    if (typeof spec.subscriptionId !== 'string' || typeof spec.location !== 'string') continue;
    // 'West Europe' and 'westeurope' are one region's quota.
    const location = canonicalLocation(spec.location);
    const key = `${spec.subscriptionId.toLowerCase()}|${location}`;
    const b = buckets.get(key) ?? { subscriptionId: spec.subscriptionId, location, addresses: [] };
    b.addresses.push(address);
    buckets.set(key, b);
  }
  return [...buckets.values()];
}

/** An error per planned create when a location's ContainerGroups usage plus the creates exceeds its limit. */
export async function preflight(ctx: KindContext, creates: readonly { address: string; spec: JsonObject }[]): Promise<{ address: string; message: string }[]> {
  // Every location at once: usage lists are paged, and each page costs a round trip.
  const results = await Promise.all(bucketsOf(creates).map((b) => quotaErrors(ctx, b)));
  return results.flat();
}

async function quotaErrors(ctx: KindContext, b: Bucket): Promise<{ address: string; message: string }[]> {
  const usage = await ctx.providers.arm.listUsage(b.subscriptionId, b.location);
  const quota = usage.find((u) => u.name.value.toLowerCase() === QUOTA_NAME); // the client checks name.value
  const planned = b.addresses.length;
  if (!quota || quota.currentValue + planned <= quota.limit) return [];
  const message = `quota exceeded in ${b.location}: ${quota.currentValue} container groups in use + ${planned} planned = ${quota.currentValue + planned}, over the ContainerGroups limit of ${quota.limit} (subscription ${b.subscriptionId})`;
  return b.addresses.map((address) => ({ address, message }));
}
