// Quotas of container groups and cores per subscription and location: the defaults, or what
// fixtures declared (kept in ARM's data, so usage and create refusals agree).
import { normalLocation } from './container-group-store.js';

export interface QuotaLimits {
  readonly containerGroups: number;
  readonly standardCores: number;
}

/** SERVICES.md "Quotas": 100 container groups and 100 cores per region and subscription. */
export const DEFAULT_QUOTAS: QuotaLimits = { containerGroups: 100, standardCores: 100 };

export function quotaKey(subscriptionId: string, location: unknown): string {
  return `${subscriptionId.toLowerCase()}/${normalLocation(location)}`;
}

/** The declared quotas of ARM's data, created empty on first use. */
export function declaredQuotas(data: Record<string, unknown>): Record<string, Partial<QuotaLimits>> {
  data.containerGroupQuotas ??= {};
  return data.containerGroupQuotas as Record<string, Partial<QuotaLimits>>;
}

export function quotasFor(data: Record<string, unknown>, subscriptionId: string, location: unknown): QuotaLimits {
  return { ...DEFAULT_QUOTAS, ...(declaredQuotas(data)[quotaKey(subscriptionId, location)] ?? {}) };
}
