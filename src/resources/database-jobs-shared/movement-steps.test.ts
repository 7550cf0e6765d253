// A database job interrupted (Ctrl-C) while it waits between status reads: the wait ends at once,
// the activity id stays in state, and the next run follows that operation without sending it again.
import { describe, expect, it } from 'vitest';
import type { JobRecord, KindContext, ServiceClients } from '../../core/kind.js';
import { isInterruption } from '../../core/interrupted.js';
import type { MovementResult } from '../../providers/lcs.js';
import { runMovement, type MovementJob } from './movement-steps.js';

const HOUR = 3_600_000;

function fakeContext(statuses: string[], onRead: () => void, signal?: AbortSignal): { ctx: KindContext; reads: string[] } {
  const reads: string[] = [];
  const lcs = {
    fetchStatus: async (_project: string, _env: string, activityId: string): Promise<MovementResult> => {
      reads.push(activityId);
      onRead();
      return { IsSuccess: true, OperationStatus: statuses.shift() ?? 'InProgress' };
    },
  };
  // The job calls only lcs.fetchStatus; the rest of the clients are never reached.
  const providers = { lcs } as unknown as ServiceClients;
  return { ctx: { providers, log: () => undefined, pollIntervalMs: HOUR, signal }, reads };
}

function job(sent: string[]): MovementJob {
  const step = (operation: 'export' | 'refresh', env: string, id: string) => ({
    operation,
    environmentId: env,
    describe: `${operation} of ${env}`,
    send: async (): Promise<MovementResult> => {
      sent.push(id);
      return { IsSuccess: true, OperationActivityId: id };
    },
  });
  return { projectId: 'p1', revision: 'r1', steps: [step('export', 'env-a', 'op-1'), step('refresh', 'env-b', 'op-2')] };
}

describe('runMovement interrupted', () => {
  it('an abort during the wait between status reads ends the wait (an hour long here) and keeps the activity id for the next run', async () => {
    const controller = new AbortController();
    const sent: string[] = [];
    const saved: JobRecord[] = [];
    const { ctx, reads } = fakeContext([], () => controller.abort(), controller.signal);
    const interrupted = runMovement(ctx, job(sent), undefined, async (r) => {
      saved.push(r);
    });
    await expect(interrupted).rejects.toThrow('export of env-a: interrupted; the next apply resumes following operation op-1');
    expect(isInterruption(await interrupted.catch((e: unknown) => e))).toBe(true); // apply reports it as interrupted, not failed
    expect(sent).toEqual(['op-1']);
    expect(reads).toEqual(['op-1']);
    const last = saved.at(-1)!;
    expect(last.status).toBe('started');
    expect(last.steps).toMatchObject([{ operation: 'export', activityId: 'op-1', status: 'InProgress' }]);

    // The next run resumes: follows op-1 without sending it again, then sends the refresh.
    const next = fakeContext(['Completed', 'Completed'], () => undefined);
    const final = await runMovement(next.ctx, job(sent), last, async () => undefined);
    expect(final.status).toBe('succeeded');
    expect(sent).toEqual(['op-1', 'op-2']);
    expect(next.reads).toEqual(['op-1', 'op-2']);
  });

  it('interrupted between operations, the next operation is not sent', async () => {
    const controller = new AbortController();
    const sent: string[] = [];
    const saved: JobRecord[] = [];
    const { ctx } = fakeContext(['Completed'], () => controller.abort(), controller.signal);
    await expect(
      runMovement(ctx, job(sent), undefined, async (r) => {
        saved.push(r);
      }),
    ).rejects.toThrow('refresh of env-b: interrupted before it was sent; the next apply sends it');
    expect(sent).toEqual(['op-1']);
    expect(saved.at(-1)).toMatchObject({ status: 'started', steps: [{ activityId: 'op-1', status: 'Completed' }] });
  });
});
