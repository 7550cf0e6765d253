// Every PushDataset rule (schema and cross-reference) broken alone, with its message and position.
import { describe, expect, test } from 'vitest';
import { brief, mutate, positionOf, validateText } from './helpers.js';

const BASE = `apiVersion: moor/v1
kind: PushDataset
metadata:
  name: sales
spec:
  workspaceId: 5d9e2b1c-7a4f-4e3b-9c2d-1f0a8b7c6d5e
  defaultRetentionPolicy: None
  defaultMode: Push
  tables:
    - name: Product
      columns:
        - name: ProductID
          dataType: Int64
    - name: Orders
      columns:
        - name: OrderKey
          dataType: Int64
        - name: Month
          dataType: string
          sortByColumn: OrderKey
      measures:
        - name: Count
          expression: COUNTROWS(Orders)
  relationships:
    - name: OrdersToProduct
      fromTable: Orders
      fromColumn: OrderKey
      toTable: Product
      toColumn: ProductID
`;

const columns = (n: number) => Array.from({ length: n }, (_, i) => `        - name: C${i}\n          dataType: Int64\n`).join('');
const tables = (n: number) => Array.from({ length: n }, (_, i) => `    - name: T${i}\n      columns: []\n`).join('');

const cases: { reason: string; from: string; to: string; at: string; message: string; nth?: number; offset?: number; severity?: 'error' | 'warning' }[] = [
  {
    reason: 'the retention policy is None or basicFIFO',
    from: 'defaultRetentionPolicy: None',
    to: 'defaultRetentionPolicy: forever',
    at: 'forever',
    message: 'spec.defaultRetentionPolicy: must be one of None, basicFIFO',
  },
  {
    reason: 'the dataset mode is one of the DatasetMode values',
    from: 'defaultMode: Push',
    to: 'defaultMode: Pull',
    at: 'Pull',
    message: 'spec.defaultMode: must be one of AsVendor, AsOnPrem, Push, Streaming, PushStreaming',
  },
  {
    reason: 'the workspace id is a UUID',
    from: 'workspaceId: 5d9e2b1c-7a4f-4e3b-9c2d-1f0a8b7c6d5e',
    to: 'workspaceId: ws-1',
    at: 'ws-1',
    message: 'spec.workspaceId: must be a UUID such as 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11',
  },
  {
    reason: 'a table name is at most 100 characters',
    from: '  relationships:',
    to: `    - name: ${'P'.repeat(101)}\n      columns: []\n  relationships:`,
    at: 'PPPP',
    message: 'spec.tables[2].name: must be 1 to 100 characters long (must be 1 to 100 letters, digits, spaces, "_", "-", ".", "(" or ")")',
  },
  {
    reason: 'a table name uses the restricted character set',
    from: '  relationships:',
    to: '    - name: Pro/duct\n      columns: []\n  relationships:',
    at: 'Pro/duct',
    message: 'spec.tables[2].name: must be 1 to 100 letters, digits, spaces, "_", "-", ".", "(" or ")"',
  },
  {
    reason: 'a relationship name is at most 100 characters',
    from: 'name: OrdersToProduct',
    to: `name: ${'R'.repeat(101)}`,
    at: 'RRRR',
    message: 'spec.relationships[0].name: must be 1 to 100 characters long (must be 1 to 100 letters, digits, spaces, "_", "-", ".", "(" or ")")',
  },
  {
    reason: 'a table has at most 75 columns (reported at the list)',
    from: '          dataType: Int64\n    - name: Orders',
    to: `          dataType: Int64\n${columns(75)}    - name: Orders`,
    at: '- name: ProductID',
    message: 'spec.tables[0].columns: must have at most 75 items',
  },
  {
    reason: 'a dataset has at most 75 tables (reported at the list)',
    from: '  relationships:',
    to: `${tables(74)}  relationships:`,
    at: '- name: Product',
    message: 'spec.tables: must have at most 75 items',
  },
  {
    reason: 'the cross-filtering behaviour is one of three',
    from: '      toColumn: ProductID',
    to: '      toColumn: ProductID\n      crossFilteringBehavior: Sideways',
    at: 'Sideways',
    message: 'spec.relationships[0].crossFilteringBehavior: must be one of OneDirection, BothDirections, Automatic',
  },
  {
    reason: 'a column type moor does not know is a warning naming the known ones (the seed does not show the complete list)',
    from: 'dataType: string',
    to: 'dataType: text',
    at: 'text',
    severity: 'warning',
    message:
      'spec.tables[1].columns[1].dataType: "text" is not one of the known values (Int64, Double, Decimal, Boolean, bool, DateTime, String); it is sent as written and the service decides',
  },
  {
    reason: 'a measure needs an expression',
    from: '          expression: COUNTROWS(Orders)\n',
    to: '',
    at: 'name: Count',
    message: 'spec.tables[1].measures[0]: missing required field expression',
  },
  {
    reason: 'fromTable names a table',
    from: 'fromTable: Orders',
    to: 'fromTable: Sales',
    at: 'Sales',
    message: 'spec.relationships[0].fromTable: fromTable "Sales" names no table of this dataset',
  },
  {
    reason: 'fromColumn names a column of fromTable',
    from: 'fromColumn: OrderKey',
    to: 'fromColumn: ProductID',
    at: 'ProductID',
    nth: 2,
    message: 'spec.relationships[0].fromColumn: fromColumn "ProductID" names no column of table "Orders"',
  },
  {
    reason: 'toTable names a table',
    from: 'toTable: Product',
    to: 'toTable: Item',
    at: 'Item',
    message: 'spec.relationships[0].toTable: toTable "Item" names no table of this dataset',
  },
  {
    reason: 'toColumn names a column of toTable',
    from: 'toColumn: ProductID',
    to: 'toColumn: OrderKey',
    at: 'OrderKey',
    nth: 4,
    message: 'spec.relationships[0].toColumn: toColumn "OrderKey" names no column of table "Product"',
  },
  {
    reason: 'sortByColumn names a column of the same table',
    from: 'sortByColumn: OrderKey',
    to: 'sortByColumn: ProductID',
    at: 'ProductID',
    nth: 2,
    message: 'spec.tables[1].columns[1].sortByColumn: sortByColumn "ProductID" names no column of table "Orders"',
  },
  {
    reason: 'table names are unique',
    from: '  relationships:',
    to: '    - name: Product\n      columns: []\n  relationships:',
    at: '    - name: Product\n      columns: []',
    offset: 12,
    message: 'spec.tables[2].name: duplicate table name "Product" (also at spec.tables[0])',
  },
  {
    reason: 'column names are unique in a table',
    from: '          dataType: Int64\n    - name: Orders',
    to: '          dataType: Int64\n        - name: ProductID\n          dataType: string\n    - name: Orders',
    at: 'ProductID',
    nth: 2,
    message: 'spec.tables[0].columns[1].name: duplicate column name "ProductID" (also at spec.tables[0].columns[0])',
  },
  {
    reason: 'sortByColumn names another column, not itself',
    from: 'sortByColumn: OrderKey',
    to: 'sortByColumn: Month',
    at: 'Month',
    nth: 2,
    message: 'spec.tables[1].columns[1].sortByColumn: sortByColumn must name another column, not the column itself',
  },
  { reason: 'tables are required', from: '  tables:', to: '  tablez:', at: 'tablez', message: 'spec.tablez: unknown field; did you mean tables?' },
];

describe('PushDataset validation', () => {
  test('the base manifest is valid', async () => {
    expect(brief(await validateText(BASE))).toEqual([]);
  });

  test("column types in any casing of the service's types are valid, as the service reads them", async () => {
    let text = mutate(BASE, 'dataType: Int64', 'dataType: int64');
    text = mutate(text, 'dataType: string', 'dataType: STRING');
    text = mutate(
      text,
      '        - name: ProductID\n',
      '        - name: Price\n          dataType: double\n        - name: Sold\n          dataType: dateTime\n        - name: Active\n          dataType: boolean\n        - name: ProductID\n',
    );
    expect(brief(await validateText(text))).toEqual([]);
  });

  test.each(cases)('$reason', async (c) => {
    const text = mutate(BASE, c.from, c.to);
    const pos = positionOf(text, c.at, c.nth);
    const diags = await validateText(text);
    const found = brief(diags);
    const expected = { severity: c.severity ?? 'error', line: pos.line, col: pos.col + (c.offset ?? 0), message: c.message };
    // Renaming the tables key also loses the required tables: both are reported.
    if (c.from === '  tables:') expect(found).toContainEqual(expected);
    else expect(found).toEqual([expected]);
  });
});
