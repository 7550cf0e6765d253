import { describe, expect, test } from 'vitest';
import { failureLine } from './summary-line.js';
import type { PlannedChange } from '../plan/types.js';

describe('failureLine', () => {
  test('names the count and the first root causes, then how many more', () => {
    const errors = ['a', 'b', 'c', 'd'].map((m) => ({ severity: 'error' as const, message: `${m} failed`, address: `AuthContext/${m}` }));
    expect(failureLine('plan', [...errors, { severity: 'warning', message: 'w' }])).toBe(
      'Plan failed: 4 errors — AuthContext/a: a failed; AuthContext/b: b failed; AuthContext/c: c failed; and 1 more',
    );
  });

  test('many requests to an unreachable service are one cause', () => {
    const cause = "cannot reach service 'arm' at http://127.0.0.1:4599 (connection refused)";
    const errors = ['web', 'api'].map((n) => ({
      severity: 'error' as const,
      message: `GET containerGroups/${n}: no answer: ${cause}`,
      address: `ContainerGroup/${n}`,
    }));
    expect(failureLine('drift', errors)).toBe(`Drift check failed: 2 errors — ${cause}`);
  });

  test('a message that already names its address is not prefixed twice', () => {
    const error = { severity: 'error' as const, address: 'DatabaseExport/x', message: 'DatabaseExport/x: the outcome of revision 1 is unknown' };
    expect(failureLine('plan', [error])).toBe('Plan failed: 1 error — DatabaseExport/x: the outcome of revision 1 is unknown');
  });

  test('a message that starts with its address as the subject of a sentence is not prefixed either', () => {
    const error = {
      severity: 'error' as const,
      address: 'ContainerGroup/keep1',
      message: 'ContainerGroup/keep1 is protected (metadata.protect) and would be replaced',
    };
    expect(failureLine('plan', [error])).toBe('Plan failed: 1 error — ContainerGroup/keep1 is protected (metadata.protect) and would be replaced');
    const longer = { severity: 'error' as const, address: 'ContainerGroup/web', message: 'ContainerGroup/web2 holds its id' };
    expect(failureLine('plan', [longer])).toBe('Plan failed: 1 error — ContainerGroup/web: ContainerGroup/web2 holds its id');
  });

  test('a plan whose only errors are unknown outcomes says the rest applies and what is held back', () => {
    const error = {
      severity: 'error' as const,
      code: 'unknown-outcome',
      address: 'DatabaseExport/x',
      message: 'DatabaseExport/x: the outcome of revision 1 is unknown',
    };
    const change = (address: string, heldBackBy?: string): PlannedChange => ({
      address,
      kind: 'K',
      action: 'run',
      fields: [],
      patch: [],
      drift: false,
      destructive: false,
      ...(heldBackBy ? { heldBackBy } : {}),
    });
    const changes = [change('DatabaseRefresh/y', 'DatabaseExport/x'), change('AuthContext/z')];
    expect(failureLine('plan', [error], changes)).toBe(
      'Plan applies in part: 1 job of unknown outcome — DatabaseExport/x: the outcome of revision 1 is unknown; ' +
        'the rest of the plan applies; held back until it is resolved: DatabaseRefresh/y',
    );
    expect(failureLine('plan', [error, { severity: 'error', message: 'boom', address: 'AuthContext/z' }], changes)).toMatch(/^Plan failed: 2 errors/);
    expect(failureLine('drift', [error], changes)).toMatch(/^Drift check failed: 1 error/);
  });
});
