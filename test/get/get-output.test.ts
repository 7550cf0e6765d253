// Rendering of read-command rows: RFC 4180 CSV quoting, aligned tables, totals per currency.
import { describe, expect, test } from 'vitest';
import { csvField, renderCsv, renderTable, type Column } from '../../src/cli/get-output.js';
import { totalRows, totalsByCurrency } from '../../src/cli/get-transactions.js';
import type { Transaction } from '../../src/providers/billing.js';

describe('CSV', () => {
  test.each([
    ['plain text stays as it is', 'abc', 'abc'],
    ['a comma is quoted', 'a,b', '"a,b"'],
    ['a quote is doubled inside quotes', 'say "hi"', '"say ""hi"""'],
    ['a line break is quoted', 'a\nb', '"a\nb"'],
    ['a missing value is empty', undefined, ''],
  ])('%s', (_reason, cell, expected) => {
    expect(csvField(cell)).toBe(expected);
  });

  test('rows end in CRLF, header first', () => {
    const cols: Column<{ a: string }>[] = [{ header: 'a', value: (r) => r.a }];
    expect(renderCsv(cols, [{ a: 'x' }], [['y']])).toBe('a\r\nx\r\ny\r\n');
  });
});

describe('tables', () => {
  test('columns are aligned, numbers to the right, a line break cannot split a row', () => {
    const cols: Column<{ n: string; v: number }>[] = [
      { header: 'name', value: (r) => r.n },
      { header: 'v', value: (r) => r.v, align: 'right' },
    ];
    expect(
      renderTable(cols, [
        { n: 'long\nname', v: 5 },
        { n: 'b', v: 100 },
      ]),
    ).toBe('NAME         V\nlong name    5\nb          100\n');
  });
});

describe('totals', () => {
  const t = (value: number, currency: string): Transaction => ({ properties: { transactionAmount: { value, currency } } });

  test('are summed per currency without floating-point noise', () => {
    const totals = totalsByCurrency([t(0.1, 'USD'), t(0.2, 'USD'), t(5, 'EUR'), { properties: {} }]);
    expect(totals).toEqual({ USD: 0.3, EUR: 5 });
    expect(totalRows(totals, false)).toEqual([
      ['TOTAL', undefined, undefined, '0.30', 'USD'],
      ['TOTAL', undefined, undefined, '5.00', 'EUR'],
    ]);
  });
});
