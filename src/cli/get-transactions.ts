// moor get transactions: the columns of a transaction row and the totals per currency.
import type { Transaction } from '../providers/billing.js';
import type { Cell, Column } from './get-output.js';

const amountOf = (t: Transaction): number | undefined => t.properties?.transactionAmount?.value;
const currencyOf = (t: Transaction): string | undefined => t.properties?.transactionAmount?.currency ?? t.properties?.billingCurrency;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** `full`: CSV keeps full dates and exact amounts; the table shortens both for reading. */
export function transactionColumns(full: boolean): Column<Transaction>[] {
  return [
    { header: 'date', value: (t) => (full ? t.properties?.date : t.properties?.date?.slice(0, 10)) },
    { header: 'kind', value: (t) => str(t.properties?.kind) },
    { header: 'product', value: (t) => t.properties?.productDescription, maxWidth: 48 },
    { header: 'amount', value: (t) => money(amountOf(t), full), align: 'right' },
    { header: 'currency', value: currencyOf },
  ];
}

function money(v: number | undefined, full: boolean): Cell {
  if (v === undefined) return undefined;
  return full ? v : v.toFixed(2);
}

/**
 * Sum of transactionAmount per currency, in order of first appearance. Rounded to a millionth,
 * so binary floating point leaves no 0.30000000000000004 behind.
 */
export function totalsByCurrency(transactions: readonly Transaction[]): Record<string, number> {
  const sums = new Map<string, number>();
  for (const t of transactions) {
    const v = amountOf(t);
    if (typeof v !== 'number') continue;
    const c = currencyOf(t) ?? '(none)';
    sums.set(c, (sums.get(c) ?? 0) + v);
  }
  return Object.fromEntries([...sums].map(([c, v]) => [c, Math.round(v * 1e6) / 1e6]));
}

/** One totals row per currency, in the transaction columns (date, kind, product, amount, currency). */
export function totalRows(totals: Readonly<Record<string, number>>, full: boolean): Cell[][] {
  return Object.entries(totals).map(([currency, value]) => ['TOTAL', undefined, undefined, full ? value : value.toFixed(2), currency]);
}
