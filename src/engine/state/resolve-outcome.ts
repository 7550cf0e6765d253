// `moor state resolve`: the user says how a job run of unknown outcome ended, after checking the service.
import { UserError } from '../../core/diagnostics.js';
import { isObject } from '../../core/json.js';
import { resolveRun, type Resolution } from '../plan/unknown-outcome.js';
import type { JobRecord } from '../../core/kind.js';
import type { ResourceRecord } from './types.js';

/**
 * The record with its last run resolved. Only a run whose outcome is unknown, or one left started
 * by an interrupted apply, can be resolved: a finished run's outcome is the service's word.
 */
export function resolveRecord(address: string, record: ResourceRecord, as: Resolution, at: Date = new Date()): ResourceRecord {
  const runs = record.runs ?? [];
  const last = runs.at(-1);
  if (!isObject(last) || typeof last.status !== 'string') {
    const what = record.pending ? ` (its ${record.pending.action} is re-checked by the next plan, which finds what it made)` : '';
    throw new UserError(`${address} has no job run to resolve${what}`);
  }
  const run = last as JobRecord;
  if (run.outcome !== 'unknown' && run.status !== 'started') {
    throw new UserError(`${address}: the last run (revision ${run.revision}) ${run.status}; only an unknown outcome can be resolved`);
  }
  return { ...record, runs: [...runs.slice(0, -1), resolveRun(run, as, at)], updatedAt: at.toISOString() };
}
