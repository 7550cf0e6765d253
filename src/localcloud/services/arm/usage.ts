// Usage per location: what the container groups held here use, against the default limits.
import type { LocalRequest, LocalResponse, LocalService, ServiceContext } from '../../types.js';
import { isObject } from '../../../core/json.js';
import { checkApiVersion } from './api-version.js';
import { armResponseHeaders, cloudErrorBody, validationFailure } from './cloud-error.js';
import { containerGroupData, groupsIn, sweepDeleted, type StoredGroup } from './container-group-store.js';
import { quotasFor, type QuotaLimits } from './quotas.js';
import { Problems, UUID } from './validation-kit.js';
import { API_VERSIONS, CONTAINER_INSTANCE_NS } from './vendor.js';

interface UsageKind {
  readonly name: string;
  readonly localized: string;
  readonly limit: number | ((q: QuotaLimits) => number);
  readonly measure: (groups: readonly StoredGroup[]) => number;
}

const USAGE_KINDS: readonly UsageKind[] = [
  { name: 'ContainerGroups', localized: 'Container Groups', limit: (q) => q.containerGroups, measure: (g) => g.length },
  {
    name: 'StandardCores',
    localized: 'Standard Cores',
    limit: (q) => q.standardCores,
    measure: (g) => Math.ceil(sumRequests(g, (r) => (typeof r.cpu === 'number' ? r.cpu : 0))),
  },
  { name: 'StandardK80Cores', localized: 'Standard K80 GPU Cores', limit: 8, measure: (g) => gpus(g, 'K80') },
  { name: 'StandardP100Cores', localized: 'Standard P100 GPU Cores', limit: 8, measure: (g) => gpus(g, 'P100') },
  { name: 'StandardV100Cores', localized: 'Standard V100 GPU Cores', limit: 8, measure: (g) => gpus(g, 'V100') },
];

/** Sums a figure over the resource requests of every container of the groups. */
function sumRequests(groups: readonly StoredGroup[], figure: (requests: Record<string, unknown>) => number): number {
  let total = 0;
  for (const g of groups) {
    const containers = isObject(g.body.properties) ? g.body.properties.containers : undefined;
    if (!Array.isArray(containers)) continue;
    for (const c of containers) {
      const requests = isObject(c) && isObject(c.properties) && isObject(c.properties.resources) ? c.properties.resources.requests : undefined;
      if (isObject(requests)) total += figure(requests);
    }
  }
  return total;
}

function gpus(groups: readonly StoredGroup[], sku: string): number {
  return sumRequests(groups, (r) => (isObject(r.gpu) && r.gpu.sku === sku && typeof r.gpu.count === 'number' ? r.gpu.count : 0));
}

function listUsage(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const bad = checkApiVersion(req, API_VERSIONS.containerInstance);
  if (bad) return bad;
  const { subscriptionId, location } = req.params;
  const p = new Problems();
  if (!UUID.test(subscriptionId)) p.add(['subscriptionId'], `The subscription identifier '${subscriptionId}' is malformed or invalid`, 'InvalidSubscriptionId');
  if (location.trim() === '') p.add(['location'], 'The location must not be empty');
  if (p.list.length > 0) return validationFailure(p.list);
  const d = containerGroupData(ctx.data);
  if (sweepDeleted(d, ctx.now(), ctx.provisioningMs ?? 0)) ctx.save();
  const groups = groupsIn(d, subscriptionId, location);
  const quotas = quotasFor(ctx.data, subscriptionId, location);
  const usages = USAGE_KINDS.map((k) => ({
    id: `/subscriptions/${subscriptionId}/providers/${CONTAINER_INSTANCE_NS}/locations/${location}/usages/${k.name}`,
    unit: 'Count',
    currentValue: k.measure(groups),
    limit: typeof k.limit === 'number' ? k.limit : k.limit(quotas),
    name: { value: k.name, localizedValue: k.localized },
  }));
  // One page, as the real service answers: its official client does not follow nextLink here.
  return { status: 200, body: { value: usages } };
}

export const armUsage: LocalService = {
  name: 'arm',
  routes: [{ method: 'GET', path: `/subscriptions/:subscriptionId/providers/${CONTAINER_INSTANCE_NS}/locations/:location/usages`, handler: listUsage }],
  errorBody: (_status, code, message) => cloudErrorBody(code, message),
  responseHeaders: armResponseHeaders,
};
