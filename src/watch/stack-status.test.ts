// A resource's status after a cycle: each of the states the dashboard and the metrics tell apart.
import { describe, expect, test } from 'vitest';
import type { StepOutcome } from '../core/events.js';
import type { Plan, PlannedChange } from '../engine/plan/types.js';
import { UNKNOWN_OUTCOME } from '../engine/plan/unknown-outcome.js';
import type { StateDocument } from '../engine/state/types.js';
import { resourceStatuses } from './stack-status.js';

function change(address: string, extra: Partial<PlannedChange> = {}): PlannedChange {
  return { address, kind: address.split('/')[0], action: 'no-op', fields: [], patch: [], drift: false, destructive: false, ...extra };
}

function plan(changes: PlannedChange[], diagnostics: Plan['diagnostics'] = []): Plan {
  return { format: 'moor-plan/1', serial: 1, changes, summary: { create: 0, update: 0, replace: 0, delete: 0, run: 0, noop: 0 }, diagnostics };
}

const state: StateDocument = {
  version: 1,
  serial: 1,
  resources: { 'AuthContext/c1': { kind: 'AuthContext', name: 'c1', lastApplied: {}, updatedAt: '2026-01-02T03:04:05.000Z' } },
};

describe('resourceStatuses', () => {
  test.each([
    ['a no-op is in sync', change('AuthContext/c1'), [], 'in_sync'],
    ['a drifted update is drifted', change('AuthContext/c1', { action: 'update', drift: true }), [], 'drifted'],
    ['a manifest change not applied is pending', change('AuthContext/c1', { action: 'update' }), [], 'pending'],
    ['a write the service still carries out is in progress', change('ContainerGroup/web', { inProgress: 'provisioning (Pending)' }), [], 'in_progress'],
    [
      'a failed apply is failed',
      change('AuthContext/c1', { action: 'update' }),
      [{ address: 'AuthContext/c1', action: 'update', status: 'failed', error: 'Conflict' }],
      'failed',
    ],
    [
      'an applied change is in sync',
      change('AuthContext/c1', { action: 'update' }),
      [{ address: 'AuthContext/c1', action: 'update', status: 'done' }],
      'in_sync',
    ],
  ] as [string, PlannedChange, StepOutcome[], string][])('%s', (_reason, c, outcomes, status) => {
    expect(resourceStatuses(plan([c]), outcomes)[0].status).toBe(status);
  });

  test('a job whose outcome is unknown says so, whatever its planned action', () => {
    const diagnostics = [{ severity: 'error' as const, code: UNKNOWN_OUTCOME, address: 'DatabaseRefresh/r1', message: 'unknown' }];
    const [r] = resourceStatuses(plan([change('DatabaseRefresh/r1')], diagnostics));
    expect(r.status).toBe('unknown');
    expect(r.detail).toContain('moor state resolve');
  });

  test('the last change is when state recorded it, or now for what this cycle applied', () => {
    const before = Date.now();
    const [kept] = resourceStatuses(plan([change('AuthContext/c1')]), [], new Set(), state);
    expect(kept.changedAt).toBe('2026-01-02T03:04:05.000Z');
    const [applied] = resourceStatuses(
      plan([change('AuthContext/c1', { action: 'update' })]),
      [{ address: 'AuthContext/c1', action: 'update', status: 'done' }],
      new Set(),
      state,
    );
    expect(Date.parse(applied.changedAt!)).toBeGreaterThanOrEqual(before - 1000);
    const [never] = resourceStatuses(plan([change('AuthContext/c2', { action: 'create' })]), [], new Set(), state);
    expect(never.changedAt).toBeUndefined();
  });

  test('a replace the plan refuses (protect) is blocked with the refusal as its detail, not "manifest changed"', () => {
    const diagnostics = [
      { severity: 'error' as const, address: 'AuthContext/c1', message: 'AuthContext/c1 is protected (metadata.protect) and would be replaced: /id changes' },
    ];
    const [r] = resourceStatuses(plan([change('AuthContext/c1', { action: 'replace', destructive: true })], diagnostics));
    expect(r).toMatchObject({ status: 'held', action: 'replace', detail: 'is protected (metadata.protect) and would be replaced: /id changes' });
  });
});
