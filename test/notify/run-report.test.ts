// What a notification says: summary lines per run kind, glyphs, masked secrets, failures; the stack identity.
import { describe, expect, test } from 'vitest';
import { runReport } from '../../src/notify/run-report.js';
import { reportMarkdown } from '../../src/notify/report-markdown.js';
import { adaptiveCard } from '../../src/notify/adaptive-card.js';
import { stackIdentity } from '../../src/notify/stack-identity.js';
import type { PlannedChange } from '../../src/engine/plan/types.js';
import { driftChange, planOf } from './fixtures.js';

const STACK = { id: 'abc123abc123', name: 'ops' };

const secretChange: PlannedChange = {
  address: 'ContainerGroup/web',
  kind: 'ContainerGroup',
  action: 'update',
  drift: false,
  destructive: false,
  fields: [
    {
      path: '/properties/containers/0/properties/environmentVariables/0/secureValue',
      op: 'replace',
      before: 'hunter2',
      after: 'hunter3',
      cause: 'manifest',
      sensitive: true,
      forcesReplace: false,
    },
  ],
  patch: [],
};
const create: PlannedChange = {
  address: 'AuthContext/c8',
  kind: 'AuthContext',
  action: 'create',
  drift: false,
  destructive: false,
  fields: [],
  patch: [],
  reason: 'not in state',
};

describe('run reports', () => {
  test('a plan lists each change with its glyph and ends with the Terraform-style summary line', () => {
    const r = runReport('plan', STACK, planOf([create, driftChange('AuthContext/c7', 'a', 'b')]));
    expect(r.summaryLine).toBe('Plan: 1 to create, 1 to update, 0 to replace, 0 to delete, 0 to run.');
    expect(r.entries.map((e) => `${e.glyph} ${e.address}`)).toEqual(['+ AuthContext/c8', '~ AuthContext/c7']);
    const md = reportMarkdown(r);
    expect(md).toContain('- `+` **AuthContext/c8** create');
    expect(md).toContain('`/displayName: "a" → "b"`');
  });

  test('a sensitive field never shows its value, in text or card, even if the plan carried one', () => {
    const r = runReport('plan', STACK, planOf([secretChange]));
    const all = reportMarkdown(r) + JSON.stringify(adaptiveCard(r));
    expect(all).toContain('(sensitive)');
    expect(all).not.toContain('hunter');
  });

  test('drift without changes says so and is ok', () => {
    const r = runReport('drift', STACK, planOf([]));
    expect(r.summaryLine).toBe('No drift: live resources match the last apply.');
    expect(r.status).toBe('ok');
    expect(JSON.stringify(adaptiveCard(r))).not.toContain('FactSet');
  });

  test('apply failures and skipped dependents are listed, with the service error text', () => {
    const r = runReport('apply', STACK, planOf([create, driftChange('AuthContext/c7', 'a', 'b')]), [
      { address: 'AuthContext/c8', action: 'create', status: 'failed', error: 'PATCH c8: 403 Forbidden: no (request id r-1)' },
      { address: 'AuthContext/c7', action: 'update', status: 'skipped', rootCause: 'AuthContext/c8' },
    ]);
    expect(r.status).toBe('failed');
    expect(r.summaryLine).toMatch(/^Apply: 0 done, 1 failed, 1 skipped\. Plan: /);
    expect(r.failures).toEqual([
      'AuthContext/c8: create failed: PATCH c8: 403 Forbidden: no (request id r-1)',
      'AuthContext/c7: skipped because AuthContext/c8 failed',
    ]);
    expect(reportMarkdown(r)).toContain('**Failures**');
  });

  test('an interrupted apply says why each step was skipped, and counts only changes made as done (no-ops are not)', () => {
    const noop: PlannedChange = { address: 'AuthContext/c1', kind: 'AuthContext', action: 'no-op', drift: false, destructive: false, fields: [], patch: [] };
    const r = runReport('apply', STACK, planOf([noop, create, driftChange('AuthContext/c7', 'a', 'b'), driftChange('AuthContext/c9', 'a', 'b')]), [
      { address: 'AuthContext/c1', action: 'no-op', status: 'done' },
      { address: 'AuthContext/c8', action: 'create', status: 'interrupted', error: 'interrupted while waiting' },
      { address: 'AuthContext/c7', action: 'update', status: 'skipped', rootCause: 'AuthContext/c8' },
      { address: 'AuthContext/c9', action: 'update', status: 'skipped', rootCause: 'interrupted' },
    ]);
    expect(r.summaryLine).toMatch(/^Apply: 0 done, 0 failed, 1 interrupted, 2 skipped\. Plan: /);
    expect(r.failures).toEqual([
      'AuthContext/c8: create interrupted: interrupted while waiting',
      'AuthContext/c7: skipped because AuthContext/c8 was interrupted',
      'AuthContext/c9: skipped: the apply was interrupted before it started',
    ]);
  });

  test('an interrupted step that had sent no change says so, not that what it sent goes on at the service', () => {
    const r = runReport('apply', STACK, planOf([create]), [
      {
        address: 'ContainerGroup/g',
        action: 'no-op',
        status: 'interrupted',
        error: 'containerGroups/g: interrupted while waiting for the operation to finish; it goes on at the service, and the next plan reads where it got to',
        sentNoChange: true,
      },
      { address: 'AuthContext/c8', action: 'update', status: 'interrupted', error: 'PUT /c8: interrupted while waiting for its turn', sentNoChange: true },
    ]);
    expect(r.failures).toEqual([
      'ContainerGroup/g: interrupted (it had sent no change; the next plan reads where things got to)',
      'AuthContext/c8: update interrupted (it had sent no change; the next plan reads where things got to)',
    ]);
  });

  test('a job of unknown outcome is listed with its reason, not as a failed no-op, and not counted as failed', () => {
    const refresh: PlannedChange = {
      address: 'DatabaseRefresh/r',
      kind: 'DatabaseRefresh',
      action: 'run',
      drift: false,
      destructive: true,
      fields: [],
      patch: [],
    };
    const r = runReport('apply', STACK, planOf([refresh]), [
      { address: 'DatabaseExport/e', action: 'no-op', status: 'failed', error: 'the outcome of revision r1 is unknown' },
      { address: 'DatabaseRefresh/r', action: 'run', status: 'skipped', rootCause: 'DatabaseExport/e' },
    ]);
    expect(r.summaryLine).toMatch(/^Apply: 0 done, 0 failed, 1 skipped\. Plan: /);
    expect(r.failures).toEqual([
      'DatabaseExport/e: the outcome of revision r1 is unknown',
      'DatabaseRefresh/r: skipped because DatabaseExport/e did not succeed',
    ]);
  });

  test('a step that waited for an earlier write and saw it end Failed is counted as failed, and its dependents skipped because it failed', () => {
    const r = runReport('apply', STACK, planOf([create]), [
      { address: 'ContainerGroup/g', action: 'no-op', status: 'failed', error: 'the operation ended Failed', followsEarlierWrite: true },
      { address: 'AuthContext/c8', action: 'create', status: 'skipped', rootCause: 'ContainerGroup/g' },
    ]);
    expect(r.summaryLine).toMatch(/^Apply: 0 done, 1 failed, 1 skipped\. Plan: /);
    expect(r.failures).toEqual(['ContainerGroup/g: the operation ended Failed', 'AuthContext/c8: skipped because ContainerGroup/g failed']);
  });

  test('apply --refresh-only reports what it accepted or forgot, not updates done', () => {
    const r = runReport('apply', STACK, planOf([driftChange('AuthContext/c7', 'a', 'b'), { ...create, drift: true }]), [
      { address: 'AuthContext/c7', action: 'refresh', status: 'done' },
      { address: 'AuthContext/c8', action: 'forget', status: 'done' },
    ]);
    expect(r.summaryLine).toBe('Refresh: 1 accepted from live into state, 1 gone and forgotten; nothing live was changed.');
    expect(r.entries.map((e) => e.action)).toEqual(['refresh: done', 'forget: done']);
  });

  test("a drift entry shows each field as the manifest had it and as it is live (a secret masked), and the stack's accept command", () => {
    const secret = {
      ...driftChange('ContainerGroup/web', 'x', 'y'),
      fields: [...driftChange('ContainerGroup/web', 'x', 'y').fields, { ...secretChange.fields[0], cause: 'drift' as const }],
    };
    const r = runReport('drift', { ...STACK, stack: 'prod' }, planOf([secret]));
    expect(r.entries[0].details).toEqual([
      '/displayName: "y" → "x" (live)',
      '/properties/containers/0/properties/environmentVariables/0/secureValue: (sensitive) → (sensitive) (live)',
      'accept it into the manifests: moor drift --stack prod --accept ContainerGroup/web',
    ]);
    expect(reportMarkdown(r) + JSON.stringify(adaptiveCard(r))).not.toContain('hunter');
  });

  test('a failing check is a failure of the report', () => {
    const check: PlannedChange = {
      address: 'Check/quota',
      kind: 'Check',
      action: 'no-op',
      drift: false,
      destructive: false,
      fields: [],
      patch: [],
      check: { passed: false, severity: 'error', message: 'only 2 of 100 free' },
    };
    expect(runReport('plan', STACK, planOf([check])).failures).toEqual(['Check/quota: check failed: only 2 of 100 free']);
  });

  test('the card is an Adaptive Card 1.5 with a FactSet of the changes', () => {
    const card = adaptiveCard(runReport('drift', STACK, planOf([driftChange('AuthContext/c7', 'a', 'b')])));
    expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.5', $schema: 'http://adaptivecards.io/schemas/adaptive-card.json' });
    const facts = (card.body as Record<string, unknown>[]).find((b) => b.type === 'FactSet');
    expect(facts).toEqual({
      type: 'FactSet',
      facts: [
        { title: '~ AuthContext/c7', value: 'drifted\n/displayName: "b" → "a" (live)\naccept it into the manifests: moor drift --accept AuthContext/c7' },
      ],
    });
  });
});

describe('stack identity', () => {
  test.each([
    ['the same paths in another order are the same stack', { paths: ['b', './a'] }, true],
    ['another manifest path is another stack', { paths: ['a'] }, false],
    ['another config file is another stack', { paths: ['a', 'b'], configFile: 'other.yaml' }, false],
    ['another folder is another stack', { paths: ['a', 'b'], cwd: '/srv/other' }, false],
  ])('%s', (_reason, variant, same) => {
    const base = stackIdentity({ paths: ['a', 'b'], cwd: '/srv/ops', configFile: 'moor.config.yaml' });
    const other = stackIdentity({ cwd: '/srv/ops', configFile: 'moor.config.yaml', ...variant });
    expect(other.id === base.id).toBe(same);
  });

  test('is named after the folder, with the paths when not the whole folder', () => {
    expect(stackIdentity({ paths: [], cwd: '/srv/ops' }).name).toBe('ops');
    expect(stackIdentity({ paths: ['prod'], cwd: '/srv/ops' }).name).toBe('ops (prod)');
  });

  test('a stack of the config is one thread per stack: its name, not its paths or folder, tells them apart', () => {
    const dev = stackIdentity({ paths: ['base', 'dev'], cwd: '/srv/ops', configFile: '/srv/ops/moor.config.yaml', stack: 'dev' });
    const prod = stackIdentity({ paths: ['base', 'prod'], cwd: '/srv/ops', configFile: '/srv/ops/moor.config.yaml', stack: 'prod' });
    const devElsewhere = stackIdentity({ paths: [], cwd: '/srv', configFile: '/srv/ops/moor.config.yaml', stack: 'dev' });
    expect(dev.id).not.toBe(prod.id);
    expect(devElsewhere.id).toBe(dev.id);
    expect(prod.name).toBe('prod (ops)');
  });
});

describe('the stack a message names', () => {
  test('is the stack of the config, never the thread key (a hash); a run of plain paths says it has no stack', () => {
    const dev = stackIdentity({ paths: ['base', 'dev'], cwd: '/srv/ops', configFile: '/srv/ops/moor.config.yaml', stack: 'dev' });
    const withStack = runReport('plan', dev, planOf([create]));
    const card = JSON.stringify(adaptiveCard(withStack));
    expect(card).toContain('"text":"stack dev"');
    expect(card + reportMarkdown(withStack)).not.toContain(dev.id);
    expect(reportMarkdown(withStack)).toContain('(stack `dev`)');

    const plain = runReport('plan', stackIdentity({ paths: [], cwd: '/srv/ops' }), planOf([create]));
    expect(JSON.stringify(adaptiveCard(plain))).toContain('"text":"no stack"');
    expect(reportMarkdown(plain)).toContain('(no stack)');
  });
});
