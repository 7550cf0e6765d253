// moor get, end to end over HTTP: each read command in each output format, every page followed, arguments checked first.
import { beforeEach, describe, expect, test } from 'vitest';
import { moor, startCloud, tempDir, type CliResult } from './run-cli.js';

const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const WORKSPACE = '5d9e2b1c-7a4f-4e3b-9c2d-1f0a8b7c6d5e';
const ACCOUNT = '12345678';
const INVOICE = 'G012345678';
/** The demo invoice's transactions and the demo workspace's eventstreams (local cloud README). */
const DEMO_TRANSACTIONS = 137;
const DEMO_EVENTSTREAMS = 120;

let run: (...args: string[]) => Promise<CliResult>;
beforeEach(async () => {
  const cloud = await startCloud();
  const cwd = await tempDir();
  run = (...args) => moor(['get', ...args], { cwd, endpoint: cloud.url });
});

const lines = (s: string) => s.split(/\r?\n/).filter((l) => l.length > 0);

describe('moor get usage', () => {
  test.each(['table', 'json', 'csv'])('lists name, current, limit and unit as %s', async (format) => {
    const r = await run('usage', '--subscription', SUB, '--location', 'westeurope', '--output', format);
    expect(r.code, r.stderr).toBe(0);
    if (format === 'json')
      expect(JSON.parse(r.stdout)).toContainEqual(
        expect.objectContaining({ name: expect.objectContaining({ value: 'ContainerGroups' }), limit: 100, unit: 'Count' }),
      );
    if (format === 'csv') expect(lines(r.stdout)[0]).toBe('name,current,limit,unit');
    if (format === 'table') expect(r.stdout).toMatch(/^NAME\s+CURRENT\s+LIMIT\s+UNIT\nContainerGroups\s+\d+\s+100\s+Count$/m);
  });
});

describe('moor get name-availability', () => {
  test('an invalid name is reported with its reason and still exits 0', async () => {
    const r = await run('name-availability', 'Bad_Name', '--subscription', SUB);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Bad_Name\s+false\s+Invalid\s+\S/);
  });

  test.each(['json', 'csv'])('a free name is available in %s', async (format) => {
    const r = await run('name-availability', 'free-name-42', '--subscription', SUB, '--type', 'Vendor.Sql/servers', '--output', format);
    expect(r.code, r.stderr).toBe(0);
    if (format === 'json') expect(JSON.parse(r.stdout)).toMatchObject({ name: 'free-name-42', available: true });
    else expect(lines(r.stdout)).toEqual(['name,available,reason,message', 'free-name-42,true,,']);
  });
});

describe('moor get eventstreams', () => {
  test('follows every continuation page of the demo workspace (25 a page) in all three formats', async () => {
    const [table, json, csv] = await Promise.all(['table', 'json', 'csv'].map((f) => run('eventstreams', '--workspace', WORKSPACE, '--output', f)));
    expect(table.code, table.stderr).toBe(0);
    expect(lines(table.stdout)[0]).toMatch(/^ID\s+DISPLAYNAME\s+FOLDERID\s+DESCRIPTION$/);
    expect(lines(table.stdout)).toHaveLength(DEMO_EVENTSTREAMS + 1);
    const items = JSON.parse(json.stdout) as { id: string }[];
    expect(new Set(items.map((i) => i.id)).size).toBe(DEMO_EVENTSTREAMS);
    expect(lines(csv.stdout)[0]).toBe('id,displayName,folderId,description');
    expect(lines(csv.stdout)).toHaveLength(DEMO_EVENTSTREAMS + 1);
  });

  test('--no-recursive lists only the root of the workspace', async () => {
    const r = await run('eventstreams', '--workspace', WORKSPACE, '--no-recursive', '--output', 'json');
    const items = JSON.parse(r.stdout) as { displayName: string; folderId?: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThan(DEMO_EVENTSTREAMS);
    expect(items.map((i) => i.displayName)).toContain('orders-stream');
    expect(items.every((i) => i.folderId === undefined)).toBe(true);
  });
});

describe('moor get transactions', () => {
  test('reads all pages of the demo invoice with --top 10 and totals them per currency in JSON', async () => {
    const r = await run('transactions', '--billing-account', ACCOUNT, '--invoice', INVOICE, '--top', '10', '--output', 'json');
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      transactions: { properties: { transactionAmount: { value: number; currency: string } } }[];
      totals: Record<string, number>;
    };
    expect(doc.transactions).toHaveLength(DEMO_TRANSACTIONS);
    const sums: Record<string, number> = {};
    for (const t of doc.transactions)
      sums[t.properties.transactionAmount.currency] = (sums[t.properties.transactionAmount.currency] ?? 0) + t.properties.transactionAmount.value;
    for (const [c, v] of Object.entries(sums)) expect(doc.totals[c]).toBeCloseTo(v, 4);
  });

  test('--filter and --search go to the service and narrow the list across pages', async () => {
    const all = JSON.parse((await run('transactions', '--billing-account', ACCOUNT, '--invoice', INVOICE, '--output', 'json')).stdout) as {
      transactions: { properties: { billingCurrency?: string; transactionAmount: { currency: string } } }[];
    };
    const eur = all.transactions.filter((t) => t.properties.transactionAmount.currency === 'EUR').length;
    const r = await run(
      'transactions',
      '--billing-account',
      ACCOUNT,
      '--invoice',
      INVOICE,
      '--top',
      '5',
      '--filter',
      "properties/billingCurrency eq 'EUR'",
      '--output',
      'json',
    );
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { transactions: unknown[]; totals: Record<string, number> };
    expect(eur).toBeGreaterThan(5);
    expect(doc.transactions).toHaveLength(eur);
    expect(Object.keys(doc.totals)).toEqual(['EUR']);
    const searched = JSON.parse(
      (await run('transactions', '--billing-account', ACCOUNT, '--invoice', INVOICE, '--search', 'Linux', '--output', 'json')).stdout,
    ) as { transactions: { properties: { productDescription: string } }[] };
    expect(searched.transactions.length).toBeGreaterThan(0);
    expect(searched.transactions.length).toBeLessThan(DEMO_TRANSACTIONS);
  });

  test('table and CSV have one row per transaction and a TOTAL row per currency', async () => {
    const [table, csv] = await Promise.all(['table', 'csv'].map((f) => run('transactions', '--billing-account', ACCOUNT, '--invoice', INVOICE, '--output', f)));
    expect(lines(table.stdout)[0]).toMatch(/^DATE\s+KIND\s+PRODUCT\s+AMOUNT\s+CURRENCY$/);
    const tableTotals = lines(table.stdout).filter((l) => l.startsWith('TOTAL'));
    expect(tableTotals.length).toBeGreaterThan(0);
    expect(lines(table.stdout)).toHaveLength(1 + DEMO_TRANSACTIONS + tableTotals.length);
    expect(csv.stdout).toContain('\r\n');
    const rows = lines(csv.stdout);
    expect(rows[0]).toBe('date,kind,product,amount,currency');
    const csvTotals = rows.filter((l) => l.startsWith('TOTAL,'));
    expect(csvTotals).toHaveLength(tableTotals.length);
    expect(csvTotals[0]).toMatch(/^TOTAL,,,\d+(\.\d+)?,[A-Z]{3}$/);
    expect(rows).toHaveLength(1 + DEMO_TRANSACTIONS + csvTotals.length);
  });
});

describe('throttling', () => {
  test('429 answers are waited out (Retry-After) and every page still arrives', async () => {
    // One request a second with a burst of 10: the 14 pages of --top 10 meet 429 several times.
    const throttled = await startCloud({ rateLimit: 1 });
    const r = await moor(['get', 'transactions', '--billing-account', ACCOUNT, '--invoice', INVOICE, '--top', '10', '--output', 'csv'], {
      cwd: await tempDir(),
      endpoint: throttled.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).filter((l) => !l.startsWith('TOTAL,'))).toHaveLength(1 + DEMO_TRANSACTIONS);
  });
});

describe('arguments are checked before anything is sent', () => {
  test.each([
    ['a subscription that is not a UUID', ['usage', '--subscription', 'abc', '--location', 'westeurope'], /--subscription must be a UUID/],
    ['a workspace that is not a UUID', ['eventstreams', '--workspace', 'ws-1'], /--workspace must be a UUID/],
    ["a billing account off the billing service's patterns", ['transactions', '--billing-account', 'acct!', '--invoice', INVOICE], /--billing-account must be/],
    ["an invoice off the billing service's patterns", ['transactions', '--billing-account', ACCOUNT, '--invoice', 'g01'], /--invoice must be an invoice name/],
    ['a page size above 50', ['transactions', '--billing-account', ACCOUNT, '--invoice', INVOICE, '--top', '51'], /--top must be a whole number from 1 to 50/],
    ['an unknown output format', ['usage', '--subscription', SUB, '--location', 'westeurope', '--output', 'xml'], /must be one of table, json, csv/],
  ])('%s is exit 1 with a clear message and no stack', async (_reason, args, message) => {
    const r = await run(...args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test('a service error names its code and request id', async () => {
    const r = await run('transactions', '--billing-account', '99999999', '--invoice', INVOICE);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: GET invoices\/G012345678\/transactions: 404 BillingAccountNotFound: .*\(request id [0-9a-f-]+\)/);
  });
});
