// Header and cross-manifest rules broken alone: apiVersion, kind, metadata, dependsOn, ${ref:}, duplicates, cycles.
import { describe, expect, test } from 'vitest';
import { brief, mutate, positionOf, validateText } from './helpers.js';

const AUTH = (name: string, extra = '') => `apiVersion: moor/v1
kind: AuthContext
metadata:
  name: ${name}${extra}
spec:
  displayName: ${name}
`;

const BASE = `${AUTH('c1')}---
apiVersion: moor/v1
kind: DatabaseExport
metadata:
  name: prod
  dependsOn: [AuthContext/c1]
  protect: true
spec:
  projectId: "1"
  environmentId: env-1
  backupName: copy
  revision: \${ref:AuthContext/c1#/id}
`;

interface Case {
  reason: string;
  from: string;
  to: string;
  at: string;
  message: string;
  nth?: number;
}

const cases: Case[] = [
  {
    reason: 'apiVersion is moor/v1',
    from: 'apiVersion: moor/v1\nkind: DatabaseExport',
    to: 'apiVersion: moor/v2\nkind: DatabaseExport',
    at: 'moor/v2',
    message: 'apiVersion: must be moor/v1',
  },
  {
    reason: 'kind is one the registry knows',
    from: 'kind: DatabaseExport',
    to: 'kind: DatabaseImport',
    at: 'DatabaseImport',
    message: 'kind: must be one of ContainerGroup, AuthContext, PushDataset, DatabaseRefresh, DatabaseExport, Check',
  },
  { reason: 'metadata.name is required', from: '  name: prod\n', to: '', at: 'metadata', nth: 2, message: 'metadata: missing required field name' },
  {
    reason: 'metadata.name uses letters, digits, -, _ and .',
    from: 'name: prod',
    to: 'name: prod copy',
    at: 'prod copy',
    message: 'metadata.name: must be 1 to 128 letters, digits, "-", "_" or "."',
  },
  {
    reason: 'no other top-level keys',
    from: 'kind: DatabaseExport',
    to: 'kind: DatabaseExport\nstatus: {}',
    at: 'status',
    message: 'status: unknown field (allowed: apiVersion, kind, metadata, spec)',
  },
  {
    reason: 'no other metadata keys',
    from: '  protect: true',
    to: '  protect: true\n  labels: {}',
    at: 'labels',
    message: 'metadata.labels: unknown field (allowed: name, dependsOn, protect, movedFrom, ignoreChanges)',
  },
  { reason: 'protect is a boolean', from: 'protect: true', to: 'protect: "yes"', at: '"yes"', message: 'metadata.protect: must be true or false' },
  {
    reason: 'dependsOn holds Kind/name addresses',
    from: 'dependsOn: [AuthContext/c1]',
    to: 'dependsOn: [c1]',
    at: 'c1]',
    message: 'metadata.dependsOn[0]: must be an address Kind/name with a known kind, e.g. AuthContext/c1',
  },
  {
    reason: 'a dependsOn target exists',
    from: 'dependsOn: [AuthContext/c1]',
    to: 'dependsOn: [AuthContext/c9]',
    at: 'AuthContext/c9',
    message: 'metadata.dependsOn[0]: no manifest defines AuthContext/c9',
  },
  {
    reason: 'a ${ref:} target exists',
    from: '${ref:AuthContext/c1#/id}',
    to: '${ref:AuthContext/c7#/id}',
    at: '${ref:',
    message: 'spec.revision: ${ref:AuthContext/c7} names no manifest',
  },
  {
    reason: 'a placeholder has valid syntax',
    from: '${ref:AuthContext/c1#/id}',
    to: '${secret:x}',
    at: '${secret',
    message: 'spec.revision: unknown placeholder ${secret:x}: expected ${env:NAME}, ${file:path} or ${ref:Kind/name#/pointer}',
  },
  {
    reason: 'an environment variable name has valid syntax',
    from: '${ref:AuthContext/c1#/id}',
    to: '${env:1BAD}',
    at: '${env',
    message: 'spec.revision: invalid environment variable name in ${env:1BAD}',
  },
  {
    reason: 'addresses are unique: the second is reported',
    from: 'kind: DatabaseExport\nmetadata:\n  name: prod',
    to: 'kind: AuthContext\nmetadata:\n  name: c1',
    at: 'c1',
    nth: 3,
    message: 'duplicate address AuthContext/c1 (first defined at m.yaml:4:9)',
  },
];

describe('manifest headers and cross-manifest rules', () => {
  test('the base set is valid', async () => {
    expect(brief(await validateText(BASE))).toEqual([]);
  });

  test.each(cases)('$reason', async (c) => {
    const text = mutate(BASE, c.from, c.to);
    const pos = positionOf(text, c.at, c.nth);
    const found = brief(await validateText(text));
    const expected = { severity: 'error', line: pos.line, col: pos.col, message: c.message };
    // Turning the export into a second c1 also leaves the export's spec fields unknown to AuthContext.
    if (c.reason.startsWith('addresses are unique')) expect(found).toContainEqual(expected);
    else expect(found).toEqual([expected]);
  });

  test('a cycle is an error that shows its path', async () => {
    const text = `${AUTH('c1', '\n  dependsOn: [AuthContext/c2]')}---\n${AUTH('c2', '\n  dependsOn: [AuthContext/c3]')}---\n${AUTH('c3', '\n  dependsOn: [AuthContext/c1]')}`;
    const pos = positionOf(text, 'AuthContext/c2');
    expect(brief(await validateText(text))).toEqual([
      { severity: 'error', line: pos.line, col: pos.col, message: 'dependency cycle: AuthContext/c1 -> AuthContext/c2 -> AuthContext/c3 -> AuthContext/c1' },
    ]);
  });

  test('a ${ref:} to oneself is a cycle', async () => {
    const text = AUTH('c1').replace('displayName: c1', 'displayName: ${ref:AuthContext/c1#/id}');
    const pos = positionOf(text, '${ref:');
    expect(brief(await validateText(text))).toEqual([
      { severity: 'error', line: pos.line, col: pos.col, message: 'dependency cycle: AuthContext/c1 -> AuthContext/c1' },
    ]);
  });

  test('diagnostics across files are sorted by file, line and column', async () => {
    const diags = await validateText(AUTH('c1', '\n  dependsOn: [AuthContext/zz]'), { 'a.yaml': AUTH('c2', '\n  protect: 1') });
    expect(diags.map((d) => `${d.location?.file}:${d.location?.line}`)).toEqual(['a.yaml:5', 'm.yaml:5']);
  });
});
