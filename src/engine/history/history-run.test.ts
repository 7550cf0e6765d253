import { describe, expect, it } from 'vitest';
import type { StepOutcome } from '../../core/events.js';
import { historyRun } from './history-run.js';
import { listedRuns } from './history-store.js';

const origin = { by: 'dev@box' };
const at = new Date('2026-01-02T03:04:05Z');

describe('historyRun', () => {
  it.each<{ reason: string; outcomes: StepOutcome[]; result: string }>([
    { reason: 'every change done is a success', outcomes: [{ address: 'A/a', action: 'create', status: 'done' }], result: 'succeeded' },
    { reason: 'a failed change fails the run', outcomes: [{ address: 'A/a', action: 'update', status: 'failed', error: 'boom' }], result: 'failed' },
    {
      reason: 'an interrupted change without failures is an interrupted run',
      outcomes: [{ address: 'A/a', action: 'create', status: 'interrupted' }],
      result: 'interrupted',
    },
    {
      reason: 'a change held back by a job of unknown outcome is a failed run',
      outcomes: [{ address: 'A/a', action: 'create', status: 'skipped', rootCause: 'J/j' }],
      result: 'failed',
    },
  ])('$reason', ({ outcomes, result }) => {
    expect(historyRun(origin, 'apply', at, outcomes, at).result).toBe(result);
  });

  it('keeps changed addresses with their result and cause, and leaves out no-ops that went well', () => {
    const run = historyRun(
      origin,
      'watch',
      at,
      [
        { address: 'A/same', action: 'no-op', status: 'done' },
        { address: 'A/a', action: 'create', status: 'failed', error: 'x'.repeat(600) },
        { address: 'A/b', action: 'update', status: 'skipped', rootCause: 'A/a' },
      ],
      at,
    );
    expect(run.changes.map((c) => c.address)).toEqual(['A/a', 'A/b']);
    expect(run.changes[0].error).toHaveLength(500);
    expect(run.changes[1].error).toBe('skipped because of A/a');
    expect(run.counts).toMatchObject({ created: 0, failed: 1, skipped: 1 });
  });
});

describe('the stored history', () => {
  const run = (n: number) => JSON.parse(JSON.stringify(historyRun(origin, `apply ${n}`, at, [{ address: `A/${n}`, action: 'create', status: 'done' }], at)));

  it('lists newest first, passes over entries that are not runs, and for an address only its runs and changes', () => {
    const stored = [run(1), { not: 'a run' }, run(2)];
    expect(listedRuns(stored).map((r) => r.command)).toEqual(['apply 2', 'apply 1']);
    expect(listedRuns(stored, 'A/1').map((r) => r.changes)).toEqual([[{ address: 'A/1', action: 'create', result: 'done' }]]);
  });
});
