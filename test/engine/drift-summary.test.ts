// The drift report's summary counts what did not drift as noop, as a plan's summary counts its no-ops.
import { describe, expect, test } from 'vitest';
import { driftOf } from '../../src/engine/workflow.js';
import { summarize, type Plan, type PlannedChange } from '../../src/engine/plan/types.js';

const change = (address: string, action: PlannedChange['action'], drift = false): PlannedChange => ({
  address,
  kind: address.split('/')[0],
  action,
  drift,
  destructive: false,
  fields: [],
  patch: [],
});

function planOf(changes: PlannedChange[]): Plan {
  return { format: 'moor-plan/1', serial: 4, changes, summary: summarize(changes), diagnostics: [] };
}

describe('driftOf summary', () => {
  test('resources that did not drift are counted as noop; the drifted ones by action', () => {
    const drift = driftOf(
      planOf([
        change('AuthContext/a', 'no-op'),
        change('AuthContext/b', 'no-op'),
        change('AuthContext/c', 'update', true),
        change('AuthContext/d', 'create', true),
      ]),
    );
    expect(drift.summary).toEqual({ create: 1, update: 1, replace: 0, delete: 0, run: 0, noop: 2 });
  });

  test('a change the manifests alone ask for did not drift: noop; a create never applied is not counted (drift cannot see it)', () => {
    const drift = driftOf(planOf([change('AuthContext/edited', 'update'), change('AuthContext/new', 'create')]));
    expect(drift.summary).toEqual({ create: 0, update: 0, replace: 0, delete: 0, run: 0, noop: 1 });
    expect(drift.changes).toEqual([]);
  });
});
