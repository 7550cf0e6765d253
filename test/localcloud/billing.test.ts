// Billing transactions on the local cloud: demo invoice, paging, top, filter, search, name patterns, error shape.
import { describe, expect, it } from 'vitest';
import type { ParsedJson } from '../support/parsed-json.js';
import { call, cloud } from './helpers.js';

const txUrl = (base: string, account = '12345678', invoice = 'G012345678', query = '') =>
  `${base}/providers/Vendor.Billing/billingAccounts/${account}/invoices/${invoice}/transactions?api-version=2024-04-01${query}`;

async function everyPage(first: string): Promise<{ pages: number; items: ParsedJson[]; links: string[] }> {
  const items = [];
  const links: string[] = [];
  let next: string | undefined = first;
  let pages = 0;
  while (next) {
    const res = await call(next);
    expect(res.status).toBe(200);
    items.push(...res.body.value);
    next = res.body.nextLink;
    if (next) links.push(next);
    pages++;
  }
  return { pages, items, links };
}

describe('billing transactions', () => {
  it('serves the demo invoice over several absolute pages of 20 by default, the same each run', async () => {
    const c = await cloud();
    const { pages, items, links } = await everyPage(txUrl(c.url));
    expect(items.length).toBeGreaterThan(100);
    expect(pages).toBe(Math.ceil(items.length / 20));
    expect(links.every((l) => l.startsWith(`${c.url}/providers/Vendor.Billing/`))).toBe(true);
    expect(new Set(items.map((t) => t.name)).size).toBe(items.length);
    const usd = items.filter((t) => t.properties.billingCurrency === 'USD').reduce((s: number, t) => s + (t.properties.transactionAmount.value as number), 0);
    expect(usd).toBeGreaterThan(0);
    expect(usd).toBeLessThan(1_000_000);
    expect(items.some((t) => t.properties.billingCurrency === 'EUR')).toBe(true);
    const again = await everyPage(txUrl((await cloud()).url));
    expect(again.items.map((t) => t.properties.transactionAmount)).toEqual(items.map((t) => t.properties.transactionAmount));
  });

  it('keeps top and filter in the next links', async () => {
    const c = await cloud();
    const query = `&top=7&filter=${encodeURIComponent("properties/billingCurrency eq 'USD'")}`;
    const { pages, items, links } = await everyPage(txUrl(c.url, undefined, undefined, query));
    expect(pages).toBeGreaterThan(2);
    expect(items.every((t) => t.properties.billingCurrency === 'USD')).toBe(true);
    expect(links.every((l) => new URL(l).searchParams.get('top') === '7' && new URL(l).searchParams.get('filter') !== null)).toBe(true);
  });

  it('filters with eq on kind and combines clauses with and', async () => {
    const c = await cloud();
    const f = encodeURIComponent("properties/kind eq 'Reservation' and properties/billingCurrency eq 'USD'");
    const { items } = await everyPage(txUrl(c.url, undefined, undefined, `&top=50&filter=${f}`));
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((t) => t.properties.kind === 'Reservation' && t.properties.billingCurrency === 'USD')).toBe(true);
  });

  it('searches the string fields and orders by date', async () => {
    const c = await cloud();
    const { items } = await everyPage(txUrl(c.url, undefined, undefined, '&top=50&search=container%20instances&orderBy=properties/date%20desc'));
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((t) => t.properties.productType === 'Container Instances')).toBe(true);
    const dates = items.map((t) => t.properties.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it.each([
    ['top beyond 50', txUrl('BASE', '12345678', 'G012345678', '&top=51'), 400, 'InvalidTopValue'],
    ['an unsupported filter', txUrl('BASE', '12345678', 'G012345678', '&filter=whatever'), 400, 'InvalidFilter'],
    ['a billing account breaking the patterns', txUrl('BASE', 'acct-1'), 400, 'InvalidBillingAccountName'],
    ['an invoice breaking the patterns', txUrl('BASE', '12345678', 'X012345678'), 400, 'InvalidInvoiceName'],
    ['an unknown invoice', txUrl('BASE', '12345678', 'G999999999'), 404, 'InvoiceNotFound'],
    ['an unknown account', txUrl('BASE', 'PCN.abc123', 'G012345678'), 404, 'BillingAccountNotFound'],
    ['no api-version', txUrl('BASE').replace('?api-version=2024-04-01', ''), 400, 'MissingApiVersionParameter'],
  ])('refuses %s in the billing error shape', async (_why, url, status, code) => {
    const c = await cloud();
    const res = await call(url.replace('BASE', c.url));
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, message: expect.any(String), details: [], additionalInfo: [] });
  });

  it.each(['PCN.ab12', '6f7e8d9c-1a2b-4c3d-8e9f-0a1b2c3d4e5f', '6f7e8d9c-1a2b-4c3d-8e9f-0a1b2c3d4e5f:1a2b3c4d-1a2b-4c3d-8e9f-0a1b2c3d4e5f_2026-01-31'])(
    'accepts the billing account name %s (then 404 as it is unknown)',
    async (account) => {
      const c = await cloud();
      expect((await call(txUrl(c.url, account))).status).toBe(404);
    },
  );

  it.each(['H1-abc9', 'HT123456789', 'T123456789', 'DABCDEFGH1', 'EB12345678', 'EA12345678'])(
    'accepts the invoice name %s (then 404 as it is unknown)',
    async (invoice) => {
      const c = await cloud();
      expect((await call(txUrl(c.url, '12345678', invoice))).body.error.code).toBe('InvoiceNotFound');
    },
  );

  it('answers 401 in the billing error shape without a token', async () => {
    const c = await cloud();
    const res = await call(txUrl(c.url), { token: null });
    expect(res.status).toBe(401);
    expect(res.body.error.additionalInfo).toEqual([]);
  });
});
