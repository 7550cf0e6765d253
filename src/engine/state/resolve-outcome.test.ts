// `moor state resolve`: only a run of unknown outcome (or one an apply left started) is resolved, and how is recorded.
import { describe, expect, it } from 'vitest';
import { resolveRecord } from './resolve-outcome.js';
import type { ResourceRecord } from './types.js';

const at = new Date('2026-11-23T05:00:00Z');
const job = (run: ResourceRecord['runs'] extends (infer R)[] | undefined ? R : never): ResourceRecord => ({
  kind: 'DatabaseExport',
  name: 'nightly',
  lastApplied: { revision: '2' },
  updatedAt: 't',
  runs: [{ revision: '1', status: 'succeeded' }, run],
});

describe('resolveRecord', () => {
  it('--succeeded: the unknown mark goes, the run succeeded as the user said; earlier runs stay', () => {
    const r = resolveRecord('DatabaseExport/nightly', job({ revision: '2', status: 'failed', outcome: 'unknown', message: 'lost' }), 'succeeded', at);
    expect(r.runs).toEqual([
      { revision: '1', status: 'succeeded' },
      { revision: '2', status: 'succeeded', resolved: 'succeeded', resolvedAt: at.toISOString(), message: 'lost' },
    ]);
    expect(r.updatedAt).toBe(at.toISOString());
  });

  it('--failed resolves a run an interrupted apply left started', () => {
    const r = resolveRecord('DatabaseExport/nightly', job({ revision: '2', status: 'started', steps: [] }), 'failed', at);
    expect(r.runs?.at(-1)).toMatchObject({ status: 'failed', resolved: 'failed' });
  });

  it("refuses a finished run: its outcome is the service's word", () => {
    expect(() => resolveRecord('DatabaseExport/nightly', job({ revision: '2', status: 'failed', message: 'Failed' }), 'succeeded', at)).toThrow(
      /last run \(revision 2\) failed; only an unknown outcome can be resolved/,
    );
  });

  it('refuses a resource, whose pending create the next plan re-checks itself', () => {
    const record: ResourceRecord = { kind: 'PushDataset', name: 's', lastApplied: {}, updatedAt: 't', pending: { action: 'create', since: 't' } };
    expect(() => resolveRecord('PushDataset/s', record, 'failed', at)).toThrow(/no job run to resolve \(its create is re-checked/);
  });
});
