// apply's closing lines: interrupted steps are counted apart from failed and skipped ones.
import { describe, expect, test } from 'vitest';
import { applySummary } from './apply-summary.js';

describe('apply summary', () => {
  test('an interrupted step is a root cause of its own, counted as interrupted; steps not started are named as skipped by the interruption', () => {
    const text = applySummary([
      { address: 'ContainerGroup/a', action: 'create', status: 'done' },
      {
        address: 'ContainerGroup/b',
        action: 'create',
        status: 'interrupted',
        error: 'containerGroups/b: interrupted while waiting for the operation to finish',
      },
      { address: 'ContainerGroup/c', action: 'create', status: 'skipped', rootCause: 'ContainerGroup/b' },
      { address: 'ContainerGroup/d', action: 'create', status: 'skipped', rootCause: 'interrupted' },
    ]);
    expect(text.split('\n')).toEqual([
      '  ContainerGroup/b: interrupted (what it sent goes on at the service; the next plan reads where it got to); skipped because of it: ContainerGroup/c',
      '  interrupted: the steps not started were skipped; run apply again to continue',
      'Apply incomplete: 1 created, 0 updated, 0 replaced, 0 deleted, 0 run; 1 interrupted (ContainerGroup/b); 2 skipped.',
    ]);
  });

  test('an interrupted step that had sent no change says so, not that what it sent goes on', () => {
    const text = applySummary([
      { address: 'ContainerGroup/g', action: 'update', status: 'interrupted', error: 'PUT /g: interrupted while waiting for its turn', sentNoChange: true },
    ]);
    expect(text.split('\n')[0]).toBe('  ContainerGroup/g: interrupted (it had sent no change; the next plan reads where things got to)');
  });

  test('a job of unknown outcome (a no-op that holds back its dependents) is a root cause but not counted as failed: nothing was sent', () => {
    const text = applySummary([
      { address: 'DatabaseExport/e', action: 'no-op', status: 'failed', error: 'the outcome of revision r1 is unknown, so what depends on it was skipped' },
      { address: 'DatabaseRefresh/r', action: 'run', status: 'skipped', rootCause: 'DatabaseExport/e' },
    ]);
    expect(text.split('\n')).toEqual([
      '  DatabaseExport/e: the outcome of revision r1 is unknown, so what depends on it was skipped (skipped because of it: DatabaseRefresh/r)',
      'Apply incomplete: 0 created, 0 updated, 0 replaced, 0 deleted, 0 run; 1 skipped.',
    ]);
  });

  test('a step that waited for an earlier write still provisioning and saw it end Failed is a root cause counted as failed', () => {
    const text = applySummary([
      { address: 'ContainerGroup/g', action: 'no-op', status: 'failed', error: 'containerGroups/g: provisioning ended Failed', followsEarlierWrite: true },
      { address: 'ContainerGroup/d', action: 'create', status: 'skipped', rootCause: 'ContainerGroup/g' },
    ]);
    expect(text.split('\n')).toEqual([
      '  ContainerGroup/g: containerGroups/g: provisioning ended Failed (skipped because of it: ContainerGroup/d)',
      'Apply incomplete: 0 created, 0 updated, 0 replaced, 0 deleted, 0 run; 1 failed (ContainerGroup/g); 1 skipped.',
    ]);
  });
});
