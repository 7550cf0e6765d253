// One count of how an apply ended, for the closing line, jsonl and --notify alike.
import { describe, expect, it } from 'vitest';
import { changesDone, countOutcomes } from './apply-counts.js';
import type { StepOutcome } from './events.js';

describe('countOutcomes', () => {
  it('counts changes made by action, failed changes, every interrupted and skipped step', () => {
    const outcomes: StepOutcome[] = [
      { address: 'A/a', action: 'create', status: 'done' },
      { address: 'A/b', action: 'update', status: 'done' },
      { address: 'A/n', action: 'no-op', status: 'done' },
      { address: 'A/c', action: 'create', status: 'failed', error: 'refused' },
      { address: 'A/w', action: 'no-op', status: 'failed', error: 'ended Failed', followsEarlierWrite: true },
      { address: 'J/u', action: 'no-op', status: 'failed', error: 'outcome unknown' },
      { address: 'A/i', action: 'update', status: 'interrupted', error: 'interrupted' },
      { address: 'A/s', action: 'create', status: 'skipped', rootCause: 'A/c' },
      { address: 'A/t', action: 'no-op', status: 'skipped', rootCause: 'J/u' },
    ];
    const c = countOutcomes(outcomes);
    expect(c).toEqual({ created: 1, updated: 1, replaced: 0, deleted: 0, run: 0, failed: 2, refused: 0, interrupted: 1, skipped: 2, incomplete: true });
    expect(changesDone(c)).toBe(2);
  });

  it('counts a change the plan refused as refused, not failed', () => {
    const c = countOutcomes([{ address: 'A/p', action: 'update', status: 'failed', error: 'policy', refused: true }]);
    expect(c).toMatchObject({ failed: 0, refused: 1 });
  });

  it('is incomplete when only a job of unknown outcome failed (it is not counted as a failed change)', () => {
    const c = countOutcomes([{ address: 'J/u', action: 'no-op', status: 'failed', error: 'outcome unknown' }]);
    expect(c).toMatchObject({ failed: 0, incomplete: true });
  });

  it('is complete when every step is done, no-ops included', () => {
    expect(countOutcomes([{ address: 'A/n', action: 'no-op', status: 'done' }])).toMatchObject({ incomplete: false });
  });
});
