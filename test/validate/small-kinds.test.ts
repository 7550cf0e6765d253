// Every rule of AuthContext, DatabaseRefresh, DatabaseExport and Check broken alone, with message and position.
import { describe, expect, test } from 'vitest';
import { brief, mutate, positionOf, validateText } from './helpers.js';

const AUTH = `apiVersion: moor/v1
kind: AuthContext
metadata:
  name: c1
spec:
  id: c1
  displayName: Trusted device
  isAvailable: true
`;

const REFRESH = `apiVersion: moor/v1
kind: DatabaseRefresh
metadata:
  name: uat
spec:
  projectId: 1234567
  sourceEnvironmentId: a1b2c3d4-0000-4000-8000-000000000001
  targetEnvironmentId: a1b2c3d4-0000-4000-8000-000000000002
  revision: 3
  exportTargetFirst:
    backupName: uat-before
`;

const EXPORT = `apiVersion: moor/v1
kind: DatabaseExport
metadata:
  name: prod
spec:
  projectId: "1234567"
  environmentId: a1b2c3d4-0000-4000-8000-000000000001
  backupName: prod-copy
  revision: "2026-11-21"
`;

const CHECK = `apiVersion: moor/v1
kind: Check
metadata:
  name: budget
spec:
  severity: warning
  spend:
    billingAccountName: "12345678"
    invoiceName: G012345678
    max:
      value: 1000
      currency: USD
`;

interface Case {
  reason: string;
  base: string;
  from: string;
  to: string;
  at: string;
  message: string;
  nth?: number;
  /** A renamed key also leaves a required one missing: other diagnostics are expected too. */
  more?: boolean;
}

const cases: Case[] = [
  { reason: 'an auth context id is c1 to c99', base: AUTH, from: 'id: c1', to: 'id: c100', at: 'c100', message: 'spec.id: must be c1 to c99' },
  {
    reason: 'metadata.name stands in for a missing spec.id and must be c1 to c99',
    base: AUTH,
    from: '  name: c1\nspec:\n  id: c1\n',
    to: '  name: mfa\nspec:\n',
    at: 'mfa',
    message: 'metadata.name: used as spec.id (not set), it must be c1 to c99',
  },
  {
    reason: 'isAvailable is a boolean',
    base: AUTH,
    from: 'isAvailable: true',
    to: 'isAvailable: yes',
    at: 'yes',
    message: 'spec.isAvailable: must be true or false',
  },
  {
    reason: 'an auth context has only the updatable fields',
    base: AUTH,
    from: '  displayName:',
    to: '  displayname:',
    at: 'displayname',
    message: 'spec.displayname: unknown field; did you mean displayName?',
  },
  {
    reason: 'a refresh never targets its own source',
    base: REFRESH,
    from: 'targetEnvironmentId: a1b2c3d4-0000-4000-8000-000000000002',
    to: 'targetEnvironmentId: A1B2C3D4-0000-4000-8000-000000000001',
    at: 'A1B2C3D4',
    message: 'spec.targetEnvironmentId: must differ from sourceEnvironmentId: a refresh would overwrite its own source',
  },
  { reason: 'a refresh needs a revision', base: REFRESH, from: '  revision: 3\n', to: '', at: 'spec', message: 'spec: missing required field revision' },
  {
    reason: 'exportTargetFirst needs a backup name',
    base: REFRESH,
    from: '    backupName: uat-before\n',
    to: '    name: uat-before\n',
    at: 'name: uat-before',
    message: 'spec.exportTargetFirst.name: unknown field (allowed: backupName)',
    more: true,
  },
  {
    reason: 'a backup name is one path segment',
    base: EXPORT,
    from: 'backupName: prod-copy',
    to: 'backupName: prod/copy',
    at: 'prod/copy',
    message: 'spec.backupName: must be a single path segment (no "/", "\\", "?", "#", "%" or spaces)',
  },
  {
    reason: 'an export needs an environment',
    base: EXPORT,
    from: '  environmentId: a1b2c3d4-0000-4000-8000-000000000001\n',
    to: '',
    at: 'spec',
    message: 'spec: missing required field environmentId',
  },
  {
    reason: 'a revision is a string or a number',
    base: EXPORT,
    from: 'revision: "2026-11-21"',
    to: 'revision: [1]',
    at: '[1]',
    message: 'spec.revision: must be a string or a number',
  },
  {
    reason: 'a check has one of four types',
    base: CHECK,
    from: '  spend:',
    to: '  spent:',
    at: 'spent',
    message: 'spec.spent: unknown field; did you mean spend?',
    more: true,
  },
  {
    reason: 'a check has exactly one type, not two',
    base: CHECK,
    from: '  severity: warning\n',
    to: '  severity: warning\n  eventstreamExists:\n    workspaceId: 5d9e2b1c-7a4f-4e3b-9c2d-1f0a8b7c6d5e\n    displayName: orders\n',
    at: 'spend',
    message: 'spec.spend: needs exactly one of quota, nameAvailable, eventstreamExists, spend (found eventstreamExists, spend)',
  },
  {
    reason: 'a check severity is error or warning',
    base: CHECK,
    from: 'severity: warning',
    to: 'severity: info',
    at: 'info',
    message: 'spec.severity: must be one of error, warning',
  },
  {
    reason: "a billing account name follows the billing service's patterns",
    base: CHECK,
    from: 'billingAccountName: "12345678"',
    to: 'billingAccountName: "PCN-123"',
    at: '"PCN-123"',
    message: 'spec.spend.billingAccountName: must be digits, "PCN." and letters or digits, or a GUID (optionally ":" GUID "_" YYYY-MM-DD)',
  },
  {
    reason: "an invoice name follows the billing service's patterns",
    base: CHECK,
    from: 'invoiceName: G012345678',
    to: 'invoiceName: X012345678',
    at: 'X012345678',
    message: "spec.spend.invoiceName: must be an invoice name such as G012345678 (the billing service's invoice names)",
  },
  {
    reason: 'a spend limit has a currency code',
    base: CHECK,
    from: 'currency: USD',
    to: 'currency: dollars',
    at: 'dollars',
    message: 'spec.spend.max.currency: must be an ISO 4217 currency code such as USD',
  },
  {
    reason: 'a quota check needs minFree of at least 0',
    base: CHECK,
    from: '  spend:\n    billingAccountName: "12345678"\n    invoiceName: G012345678\n    max:\n      value: 1000\n      currency: USD\n',
    to: '  quota:\n    subscriptionId: 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11\n    location: westeurope\n    minFree: -1\n',
    at: '-1',
    message: 'spec.quota.minFree: must be at least 0',
  },
  {
    reason: 'a server name follows the name-availability rules',
    base: CHECK,
    from: '  spend:\n    billingAccountName: "12345678"\n    invoiceName: G012345678\n    max:\n      value: 1000\n      currency: USD\n',
    to: '  nameAvailable:\n    subscriptionId: 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11\n    name: Moor_SQL\n',
    at: 'Moor_SQL',
    message: 'spec.nameAvailable.name: must be 1 to 63 lower-case letters and digits, with hyphens only inside',
  },
  {
    reason: 'an eventstream check needs a workspace UUID',
    base: CHECK,
    from: '  spend:\n    billingAccountName: "12345678"\n    invoiceName: G012345678\n    max:\n      value: 1000\n      currency: USD\n',
    to: '  eventstreamExists:\n    workspaceId: ws\n    displayName: orders\n',
    at: 'ws',
    nth: 1,
    message: 'spec.eventstreamExists.workspaceId: must be a UUID such as 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11',
  },
];

describe('AuthContext, DatabaseRefresh, DatabaseExport and Check validation', () => {
  test.each([
    ['AuthContext', AUTH],
    ['DatabaseRefresh', REFRESH],
    ['DatabaseExport', EXPORT],
    ['Check', CHECK],
  ])('the base %s manifest is valid', async (_kind, text) => {
    expect(brief(await validateText(text))).toEqual([]);
  });

  test.each(cases)('$reason', async (c) => {
    const text = mutate(c.base, c.from, c.to);
    const pos = positionOf(text, c.at, c.nth);
    const expected = { severity: 'error', line: pos.line, col: pos.col, message: c.message };
    const found = brief(await validateText(text));
    if (c.more) expect(found).toContainEqual(expected);
    else expect(found).toEqual([expected]);
  });

  test('a check with no type is reported at the spec key', async () => {
    const text = `apiVersion: moor/v1\nkind: Check\nmetadata:\n  name: empty\nspec:\n  severity: error\n`;
    expect(brief(await validateText(text))).toEqual([
      { severity: 'error', line: 5, col: 1, message: 'spec: needs exactly one of quota, nameAvailable, eventstreamExists, spend' },
    ]);
  });
});
