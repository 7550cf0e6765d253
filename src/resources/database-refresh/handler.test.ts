// The DatabaseRefresh/DatabaseExport jobs with a fake LCS client: export first, checkpoints, resume without resend, refusals, lost answers.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../core/json.js';
import type { LcsClient, MovementResult } from '../../providers/lcs.js';
import type { Providers } from '../../providers/providers.js';
import { ServiceError } from '../../providers/service-error.js';
import type { JobRecord, KindContext } from '../../core/kind.js';
import { job as refresh } from './handler.js';
import { job as exportJob } from '../database-export/handler.js';

interface Fake {
  ctx: KindContext;
  sent: string[];
  statusReads: string[];
}

/** Each sent operation gets an id; its status walks through `statuses` one read at a time. */
function fake(opts: { statuses?: string[]; send?: (op: string) => MovementResult | Error | undefined } = {}): Fake {
  const f: Fake = { ctx: undefined as unknown as KindContext, sent: [], statusReads: [] };
  const progress = new Map<string, number>();
  const statuses = opts.statuses ?? ['InProgress', 'Completed'];
  const send = async (op: string): Promise<MovementResult> => {
    f.sent.push(op);
    const r = opts.send?.(op) ?? { IsSuccess: true, OperationActivityId: `${op.split(':')[0]}-${f.sent.length}` };
    if (r instanceof Error) throw r;
    return r;
  };
  const lcs: Partial<LcsClient> = {
    exportDatabase: (_p, env, backup) => send(`export:${env}:${backup}`),
    refreshDatabase: (_p, src, tgt) => send(`refresh:${src}->${tgt}`),
    fetchStatus: async (_p, env, id) => {
      f.statusReads.push(`${env}:${id}`);
      const n = progress.get(id) ?? 0;
      progress.set(id, n + 1);
      return { IsSuccess: true, OperationActivityId: id, OperationStatus: statuses[Math.min(n, statuses.length - 1)] };
    },
  };
  // Only the LCS client is used by these kinds.
  f.ctx = { providers: { lcs } as unknown as Providers, log: () => undefined, pollIntervalMs: 0 };
  return f;
}

const spec: JsonObject = {
  projectId: 1234,
  sourceEnvironmentId: 'prod',
  targetEnvironmentId: 'uat',
  revision: 3,
  exportTargetFirst: { backupName: 'uat-before' },
};

const { exportTargetFirst: _unused, ...noExport } = spec;

function recorder(): { checkpoints: JobRecord[]; checkpoint: (r: JobRecord) => Promise<void> } {
  const checkpoints: JobRecord[] = [];
  return {
    checkpoints,
    checkpoint: async (r) => {
      checkpoints.push(r);
    },
  };
}

describe('DatabaseRefresh job', () => {
  it('is destructive and keyed by the revision as a string', () => {
    expect(refresh.destructive).toBe(true);
    expect(exportJob.destructive).toBe(false);
    expect(refresh.revision(spec)).toBe('3');
  });

  it('exports the target first, follows it to Completed, then refreshes, checkpointing every step', async () => {
    const f = fake();
    const { checkpoints, checkpoint } = recorder();
    const rec = await refresh.run(f.ctx, spec, undefined, checkpoint);
    expect(f.sent).toEqual(['export:uat:uat-before', 'refresh:prod->uat']);
    expect(rec.status).toBe('succeeded');
    const steps = rec.steps as JsonObject[];
    expect(steps.map((s) => [s.operation, s.activityId, s.status])).toEqual([
      ['export', 'export-1', 'Completed'],
      ['refresh', 'refresh-2', 'Completed'],
    ]);
    // The refresh id is in state before its status is ever read.
    const firstWithRefreshId = checkpoints.findIndex((c) => (c.steps as JsonObject[])[1]?.activityId === 'refresh-2');
    expect((checkpoints[firstWithRefreshId].steps as JsonObject[])[1].status).toBe('Sent');
    expect(checkpoints.at(-1)?.status).toBe('succeeded');
  });

  it('resumes following a started run of the same revision without sending again', async () => {
    const f = fake();
    const record: JobRecord = {
      revision: '3',
      status: 'started',
      steps: [
        { operation: 'export', environmentId: 'uat', activityId: 'e-1', status: 'Completed', at: 't' },
        { operation: 'refresh', environmentId: 'uat', activityId: 'r-1', status: 'InProgress', at: 't' },
      ],
    };
    const rec = await refresh.run(f.ctx, spec, record, recorder().checkpoint);
    expect(f.sent).toEqual([]);
    expect(f.statusReads).toEqual(['uat:r-1', 'uat:r-1']);
    expect(rec.status).toBe('succeeded');
  });

  it('a run recorded as being sent but without an activity id is not resent: the outcome is unknown', async () => {
    const f = fake();
    const record: JobRecord = { revision: '3', status: 'started', steps: [{ operation: 'export', environmentId: 'uat', status: 'Sending', at: 't' }] };
    const { checkpoints, checkpoint } = recorder();
    await expect(refresh.run(f.ctx, spec, record, checkpoint)).rejects.toThrow(/change spec.revision/i);
    expect(f.sent).toEqual([]);
    expect(checkpoints.at(-1)).toMatchObject({ status: 'failed', outcome: 'unknown' });
  });

  it('IsSuccess false is a failed record and a UserError quoting ErrorMessage, not retried', async () => {
    const f = fake({ send: () => ({ IsSuccess: false, ErrorMessage: 'Maximum of 3 operations per 24 hours reached' }) });
    const { checkpoints, checkpoint } = recorder();
    await expect(refresh.run(f.ctx, noExport, undefined, checkpoint)).rejects.toThrow(/Maximum of 3 operations/);
    expect(f.sent).toEqual(['refresh:prod->uat']);
    expect(checkpoints.at(-1)).toMatchObject({ status: 'failed' });
  });

  it('a lost answer on send is a failed record marked outcome unknown, never resent', async () => {
    const lost = new ServiceError({
      service: 'lcs',
      method: 'POST',
      path: '/x',
      label: 'refresh/uat',
      status: 0,
      serviceMessage: 'connection failed',
      outcomeUnknown: true,
    });
    const f = fake({ send: () => lost });
    const { checkpoints, checkpoint } = recorder();
    await expect(refresh.run(f.ctx, noExport, undefined, checkpoint)).rejects.toThrow(/Check environment uat/);
    expect(f.sent).toHaveLength(1);
    expect(checkpoints.at(-1)).toMatchObject({ status: 'failed', outcome: 'unknown' });
    // Running the same revision again is refused rather than resent.
    await expect(refresh.run(f.ctx, noExport, checkpoints.at(-1), checkpoint)).rejects.toThrow(/change spec.revision/i);
    expect(f.sent).toHaveLength(1);
  });

  it('a request refused before anything ran (401) leaves the run resumable, and the next apply sends it', async () => {
    const refused = new ServiceError({ service: 'lcs', method: 'POST', path: '/x', label: 'refresh/uat', status: 401, serviceMessage: 'bad token' });
    let first = true;
    const f = fake({
      send: () => {
        if (!first) return undefined;
        first = false;
        return refused;
      },
    });
    const { checkpoints, checkpoint } = recorder();
    await expect(refresh.run(f.ctx, noExport, undefined, checkpoint)).rejects.toThrow(/was not started: .*401.*the next apply sends it/);
    expect(checkpoints.at(-1)).toMatchObject({ status: 'started', steps: [] });
    const rec = await refresh.run(f.ctx, noExport, checkpoints.at(-1), checkpoint);
    expect(rec.status).toBe('succeeded');
    expect(f.sent).toHaveLength(2);
  });

  it('a failed export stops the job before the refresh is sent', async () => {
    const f = fake({ statuses: ['InProgress', 'Failed'] });
    const { checkpoints, checkpoint } = recorder();
    await expect(refresh.run(f.ctx, spec, undefined, checkpoint)).rejects.toThrow(/ended Failed/);
    expect(f.sent).toEqual(['export:uat:uat-before']);
    expect(checkpoints.at(-1)?.status).toBe('failed');
  });

  it('a new revision starts a new run even after a finished one', async () => {
    const f = fake({ statuses: ['SignedOff'] });
    const old: JobRecord = { revision: '2', status: 'succeeded', steps: [] };
    const rec = await refresh.run(f.ctx, noExport, old, recorder().checkpoint);
    expect(rec).toMatchObject({ revision: '3', status: 'succeeded' });
    expect(f.sent).toEqual(['refresh:prod->uat']);
  });
});

describe('re-checking an unknown outcome', () => {
  const unknownWithId: JobRecord = {
    revision: '3',
    status: 'failed',
    outcome: 'unknown',
    message: 'status could not be read',
    steps: [{ operation: 'export', environmentId: 'uat', activityId: 'e-1', status: 'Unknown', at: 't' }],
  };

  it('an unreadable status is recorded as an unknown outcome (re-checkable by the activity id)', async () => {
    const f = fake();
    (f.ctx.providers.lcs as unknown as { fetchStatus: unknown }).fetchStatus = async () => ({ IsSuccess: false, ErrorMessage: 'try later' });
    const { checkpoints, checkpoint } = recorder();
    await expect(exportJob.run(f.ctx, { projectId: 'p', environmentId: 'uat', backupName: 'b', revision: '3' }, undefined, checkpoint)).rejects.toThrow(
      /could not be read/,
    );
    expect(checkpoints.at(-1)).toMatchObject({ status: 'failed', outcome: 'unknown' });
    expect((checkpoints.at(-1)!.steps as JsonObject[])[0]).toMatchObject({ activityId: 'export-1', status: 'Unknown' });
  });

  it('with an activity id, the status endpoint makes the run resumable at the status the service reports', async () => {
    const f = fake({ statuses: ['Completed'] });
    const found = await refresh.recheck!(f.ctx, spec, unknownWithId);
    expect(f.statusReads).toEqual(['uat:e-1']);
    expect(found).toMatchObject({ revision: '3', status: 'started', steps: [{ activityId: 'e-1', status: 'Completed' }] });
    expect(found).not.toHaveProperty('outcome');
    // Resuming it sends only what had not been sent yet: the refresh after the export.
    const rec = await refresh.run(f.ctx, spec, found, recorder().checkpoint);
    expect(f.sent).toEqual(['refresh:prod->uat']);
    expect(rec.status).toBe('succeeded');
  });

  it('without an activity id (the answer to the send was lost) the service cannot tell: undefined, nothing read', async () => {
    const f = fake();
    const lostSend: JobRecord = {
      revision: '3',
      status: 'failed',
      outcome: 'unknown',
      steps: [{ operation: 'export', environmentId: 'uat', status: 'Sending', at: 't' }],
    };
    expect(await exportJob.recheck!(f.ctx, spec, lostSend)).toBeUndefined();
    expect(f.statusReads).toEqual([]);
  });

  it('a status the service cannot give leaves the outcome unknown', async () => {
    const f = fake();
    (f.ctx.providers.lcs as unknown as { fetchStatus: unknown }).fetchStatus = async () => ({ IsSuccess: false, ErrorMessage: 'unknown activity' });
    expect(await refresh.recheck!(f.ctx, spec, unknownWithId)).toBeUndefined();
  });
});

describe('DatabaseExport job', () => {
  it('exports the environment under the backup name and follows it', async () => {
    const f = fake();
    const rec = await exportJob.run(f.ctx, { projectId: 'p', environmentId: 'dev', backupName: 'nightly', revision: 'a' }, undefined, recorder().checkpoint);
    expect(f.sent).toEqual(['export:dev:nightly']);
    expect(f.statusReads).toEqual(['dev:export-1', 'dev:export-1']);
    expect(rec.status).toBe('succeeded');
  });
});
