import { describe, expect, test } from 'vitest';
import { plainProgress } from './progress.js';

describe('plain progress', () => {
  test('a skipped step names its root cause without claiming it failed (its outcome may be unknown)', () => {
    const lines: string[] = [];
    const p = plainProgress((l) => lines.push(l));
    p.listener.finished?.({ address: 'DatabaseRefresh/r', action: 'run', status: 'skipped', rootCause: 'DatabaseExport/e' });
    p.listener.finished?.({ address: 'AuthContext/c1', action: 'create', status: 'skipped', rootCause: 'interrupted' });
    expect(lines).toEqual(['DatabaseRefresh/r: skipped (DatabaseExport/e did not succeed)', 'AuthContext/c1: skipped (interrupted)']);
  });
});
