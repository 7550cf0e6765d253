// A watch cycle's report is made from the results its operations sent on the event stream: each
// result a stack can end a cycle with, from the events that lead to it.
import { describe, expect, test } from 'vitest';
import { UserError } from '../core/diagnostics.js';
import type { StepOutcome } from '../core/events.js';
import { buildGraph } from '../engine/graph.js';
import type { RunEvent } from '../engine/operations/run-events.js';
import type { Plan, PlannedChange } from '../engine/plan/types.js';
import type { StateDocument } from '../engine/state/types.js';
import { StateLockedError } from '../engine/state/state-locked-error.js';
import { cycleResults } from './cycle-results.js';
import { reportOf } from './reconcile.js';

function change(address: string, extra: Partial<PlannedChange> = {}): PlannedChange {
  return { address, kind: address.split('/')[0], action: 'no-op', fields: [], patch: [], drift: false, destructive: false, ...extra };
}

function plan(changes: PlannedChange[], diagnostics: Plan['diagnostics'] = []): Plan {
  return { format: 'moor-plan/1', serial: 1, changes, summary: { create: 0, update: 0, replace: 0, delete: 0, run: 0, noop: 0 }, diagnostics };
}

const state: StateDocument = { version: 1, serial: 1, resources: {} };
const made = { graph: buildGraph([]), state };
const REPORT = { selfHeal: false, prune: false, allowDestructive: [] };
const HEAL = { ...REPORT, selfHeal: true };

const drifted = plan([change('AuthContext/c1', { action: 'update', drift: true }), change('AuthContext/c2')]);
const done: StepOutcome = { address: 'AuthContext/c1', action: 'update', status: 'done' };

/** The report of a cycle whose operations sent these events. */
async function reportFrom(events: readonly RunEvent[], options = REPORT) {
  const gathered = cycleResults();
  for (const e of events) await gathered.events(e);
  return reportOf(gathered.results(), options);
}

describe('a watch cycle reports what its operations sent', () => {
  test.each([
    ['a plan with nothing to do is in sync', [{ type: 'plan_ready', mode: 'plan', plan: plan([change('AuthContext/c1')]), made }], REPORT, 'in_sync', []],
    [
      'a plan that found drift, without --self-heal, is drifted',
      [{ type: 'plan_ready', mode: 'plan', plan: drifted, made }],
      REPORT,
      'drifted',
      ['AuthContext/c1: drifted (update)'],
    ],
    [
      'with --self-heal, a plan nothing was applied of is pending',
      [{ type: 'plan_ready', mode: 'plan', plan: drifted, made }],
      HEAL,
      'pending',
      ['AuthContext/c1: drifted (update)'],
    ],
    [
      'an apply that ended done healed what it found',
      [
        { type: 'plan_ready', mode: 'plan', plan: drifted, made },
        { type: 'apply_started', plan: drifted, stats: () => ({ inFlight: 0, queued: 0, busySteps: 0, throttledMs: 0, answers: 0, throttled: 0 }) },
        { type: 'apply_done', outcomes: [done], refresh: false },
      ],
      HEAL,
      'healed',
      ['AuthContext/c1: drifted (update)'],
    ],
    [
      'an apply with a failed step failed, naming it',
      [
        { type: 'plan_ready', mode: 'plan', plan: drifted, made },
        { type: 'apply_started', plan: drifted, stats: () => ({ inFlight: 0, queued: 0, busySteps: 0, throttledMs: 0, answers: 0, throttled: 0 }) },
        { type: 'apply_done', outcomes: [{ ...done, status: 'failed', error: 'refused by the service' }], refresh: false },
      ],
      HEAL,
      'failed',
      ['AuthContext/c1: refused by the service'],
    ],
    [
      'a plan with errors failed',
      [{ type: 'plan_ready', mode: 'plan', plan: plan([], [{ severity: 'error', message: 'spec.x: bad', address: 'AuthContext/c1' }]), made }],
      REPORT,
      'failed',
      ['AuthContext/c1: spec.x: bad'],
    ],
    [
      'a run that failed before its plan failed with its error',
      [{ type: 'run_failed', command: 'plan', error: new UserError('no manifests') }],
      REPORT,
      'failed',
      ['no manifests'],
    ],
    [
      'a state lock held by another run skips the cycle',
      [{ type: 'run_failed', command: 'apply', error: new StateLockedError('state is locked by moor apply', 'moor apply') }],
      HEAL,
      'locked',
      [],
    ],
    [
      'a failure that only reads like a held lock fails the cycle: the lock is told by its type, not its text',
      [{ type: 'run_failed', command: 'plan', error: new UserError('state is locked by a typo') }],
      REPORT,
      'failed',
      ['state is locked by a typo'],
    ],
  ] as const)('%s', async (_why, events, options, result, findings) => {
    const report = await reportFrom(events, options);
    expect(report.result).toBe(result);
    expect(report.findings).toEqual(findings);
  });

  test('the report carries the plan applied, its outcomes, and the graph and resources of the plan made', async () => {
    const report = await reportFrom(
      [
        { type: 'plan_ready', mode: 'plan', plan: drifted, made },
        { type: 'apply_started', plan: drifted, stats: () => ({ inFlight: 0, queued: 0, busySteps: 0, throttledMs: 0, answers: 0, throttled: 0 }) },
        { type: 'apply_done', outcomes: [done], refresh: false },
      ],
      HEAL,
    );
    expect(report).toMatchObject({ plan: drifted, outcomes: [done], graph: made.graph });
    expect(report.resources?.map((r) => [r.address, r.status])).toEqual([
      ['AuthContext/c1', 'in_sync'],
      ['AuthContext/c2', 'in_sync'],
    ]);
  });
});
