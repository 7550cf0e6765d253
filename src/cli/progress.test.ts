// The status line of apply's terminal progress: what is in flight, what waits on the service, throttling.
import { describe, expect, test } from 'vitest';
import { plainProgress, statusLine } from './progress.js';

const idle = { inFlight: 0, queued: 0, busySteps: 0, throttledMs: 0, answers: 0, throttled: 0 };

describe('statusLine', () => {
  test('steps with no request out are waiting on the service', () => {
    expect(statusLine(12, { ...idle, inFlight: 3, queued: 1, busySteps: 4 })).toBe('12 in flight (3 requests sent, 1 queued) · 8 waiting on the service');
  });

  test('says when moor is throttled and for how long, then how many requests were', () => {
    expect(statusLine(2, { ...idle, busySteps: 2, throttledMs: 2500, throttled: 1 })).toBe('2 in flight (0 requests sent, 0 queued) · 0 waiting on the service · throttled by the service for 3 s more');
    expect(statusLine(0, { ...idle, throttled: 4 })).toContain('4 throttled request(s) so far');
  });
});

describe('plain progress', () => {
  test('a skipped step names its root cause without claiming it failed (its outcome may be unknown)', () => {
    const lines: string[] = [];
    const p = plainProgress((l) => lines.push(l));
    p.sink({ type: 'step_finished', outcome: { address: 'DatabaseRefresh/r', action: 'run', status: 'skipped', rootCause: 'DatabaseExport/e' } });
    p.sink({ type: 'step_finished', outcome: { address: 'AuthContext/c1', action: 'create', status: 'skipped', rootCause: 'interrupted' } });
    expect(lines).toEqual(['DatabaseRefresh/r: skipped (DatabaseExport/e did not succeed)', 'AuthContext/c1: skipped (interrupted)']);
  });
});
