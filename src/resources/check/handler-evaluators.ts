// One evaluator per Check variant: quota, nameAvailable, eventstreamExists, spend; each reads its service and says one line.
import type { JsonObject, JsonValue } from '../../core/json.js';
import type { Transaction } from '../../providers/billing.js';
import type { CheckResult, KindContext } from '../../core/kind.js';
import { shownValue } from '../spec-shared/spec-text.js';

/** A field of the check's spec as text: absent or null reads as ''. */
const str = (v: JsonValue | undefined): string => (v === undefined || v === null ? '' : shownValue(v));

/** Free capacity of a usage entry at a location must be at least minFree. */
export async function quota(ctx: KindContext, q: JsonObject): Promise<CheckResult> {
  const resource = typeof q.resource === 'string' ? q.resource : 'ContainerGroups';
  const location = str(q.location);
  const minFree = Number(q.minFree ?? 0);
  const usage = await ctx.providers.arm.listUsage(str(q.subscriptionId), location);
  const entry = usage.find((u) => u.name.value.toLowerCase() === resource.toLowerCase()); // the client checks name.value
  if (!entry) return { passed: false, message: `quota: no usage of ${resource} is reported in ${location}` };
  const free = entry.limit - entry.currentValue;
  return {
    passed: free >= minFree,
    message: `quota of ${resource} in ${location}: ${entry.currentValue} of ${entry.limit} used, ${free} free (need at least ${minFree})`,
    details: { resource, location, currentValue: entry.currentValue, limit: entry.limit, free, minFree },
  };
}

/** The server name must be available. */
export async function nameAvailable(ctx: KindContext, n: JsonObject): Promise<CheckResult> {
  const name = str(n.name);
  const type = typeof n.type === 'string' ? n.type : undefined;
  const answer = await ctx.providers.arm.checkNameAvailability(str(n.subscriptionId), name, type);
  if (answer.available) return { passed: true, message: `name '${name}' is available` };
  // The service's message may span lines; a check result is one line.
  const why = [answer.reason, answer.message].filter(Boolean).join(': ').replace(/\s+/g, ' ').trim();
  return { passed: false, message: `name '${name}' is not available${why ? ` (${why})` : ''}`, details: { reason: answer.reason ?? null } };
}

/** An eventstream with this display name must exist in the workspace (every page read). */
export async function eventstreamExists(ctx: KindContext, e: JsonObject): Promise<CheckResult> {
  const displayName = str(e.displayName);
  const workspaceId = str(e.workspaceId);
  const items = await ctx.providers.fabric.listEventstreams(workspaceId);
  const found = items.find((i) => i.displayName === displayName);
  return found
    ? { passed: true, message: `eventstream '${displayName}' exists in workspace ${workspaceId} (id ${found.id})`, details: { id: found.id } }
    : { passed: false, message: `eventstream '${displayName}' not found among the ${items.length} eventstreams of workspace ${workspaceId}` };
}

/** Totals of transactionAmount per currency. */
export function totalsByCurrency(transactions: readonly Transaction[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const t of transactions) {
    const amount = t.properties?.transactionAmount;
    if (!amount || typeof amount.value !== 'number') continue;
    const currency = amount.currency ?? t.properties.billingCurrency ?? '?';
    totals.set(currency, (totals.get(currency) ?? 0) + amount.value);
  }
  return totals;
}

const money = (v: number, currency: string): string => `${v.toFixed(2)} ${currency}`;

/** The invoice's transactions in max.currency must sum to at most max.value. */
export async function spend(ctx: KindContext, s: JsonObject): Promise<CheckResult> {
  const max = (s.max ?? {}) as JsonObject;
  const currency = str(max.currency);
  const limit = Number(max.value);
  const invoice = str(s.invoiceName);
  const list = await ctx.providers.billing.listTransactions(str(s.billingAccountName), invoice);
  const totals = totalsByCurrency(list);
  const total = totals.get(currency) ?? 0;
  const others = [...totals].filter(([c]) => c !== currency).map(([c, v]) => money(v, c));
  const also = others.length > 0 ? `; also ${others.join(', ')}` : '';
  return {
    passed: total <= limit + 1e-9,
    message: `spend on invoice ${invoice}: ${money(total, currency)} of at most ${money(limit, currency)} over ${list.length} transactions${also}`,
    details: { total, currency, max: limit, totals: Object.fromEntries(totals) },
  };
}
