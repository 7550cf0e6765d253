// Runs database-movement operations as a job: send each step once, record it at once, follow it to its end, resume after a crash.
import { UserError } from '../../core/diagnostics.js';
import { sleep, waitUnlessAborted } from '../../core/abortable-wait.js';
import { interruption, isInterruption } from '../../core/interrupted.js';
import type { JsonObject } from '../../core/json.js';
import type { MovementResult } from '../../providers/lcs.js';
import { ServiceError } from '../../providers/service-error.js';
import type { JobRecord, KindContext } from '../../core/kind.js';

/** One operation of a job, in order. */
export interface MovementStep {
  readonly operation: 'export' | 'refresh';
  /** The environment whose status endpoint follows the operation (the exported one, or the refresh target). */
  readonly environmentId: string;
  /** What it does, for messages: 'export of env-b as pre-refresh'. */
  readonly describe: string;
  /** Sends the operation; called at most once per revision. */
  readonly send: () => Promise<MovementResult>;
}

export interface MovementJob {
  readonly projectId: string;
  readonly revision: string;
  readonly steps: readonly MovementStep[];
}

/** A step as kept in the job record. */
interface StepRecord extends JsonObject {
  operation: string;
  environmentId: string;
  status: string;
  at: string;
}

const SUCCEEDED = new Set(['completed', 'signedoff']);
const FAILED = new Set(['failed', 'aborted', 'rollbackfailed', 'rollbackcompleted']);
/** Recorded just before sending: found on resume, it means the answer may have been lost in a crash. */
const SENDING = 'Sending';

/** The wait between status reads: the run's setting (the engine takes it from MOOR_POLL_INTERVAL_MS or the target), else 5 s. */
export function pollIntervalMs(ctx?: KindContext): number {
  return ctx?.pollIntervalMs ?? 5_000;
}

/** Runs or resumes a job; checkpoints after every step; never sends a recorded step again. */
export async function runMovement(
  ctx: KindContext,
  job: MovementJob,
  record: JobRecord | undefined,
  checkpoint: (r: JobRecord) => Promise<void>,
): Promise<JobRecord> {
  if (record?.revision === job.revision && record.outcome === 'unknown') {
    const message =
      typeof record.message === 'string' ? record.message : 'the last run of this revision has an unknown outcome; change the revision to run again';
    throw new UserError(message);
  }
  const runner = new Runner(ctx, job, checkpoint, resumable(record, job.revision));
  return runner.run();
}

function resumable(record: JobRecord | undefined, revision: string): JobRecord {
  if (record?.revision === revision && record.status === 'started') return structuredClone(record);
  return { revision, status: 'started', steps: [] };
}

class Runner {
  constructor(
    private readonly ctx: KindContext,
    private readonly job: MovementJob,
    private readonly checkpoint: (r: JobRecord) => Promise<void>,
    private rec: JobRecord,
  ) {}

  private get steps(): StepRecord[] {
    return this.rec.steps as StepRecord[];
  }

  async run(): Promise<JobRecord> {
    for (const [i, step] of this.job.steps.entries()) {
      // The record may hold fewer steps than the job: the rest are not sent yet.
      let rec = this.steps[i] as StepRecord | undefined;
      if (!rec) {
        // Interrupted between operations: the next one is not sent; the next apply sends it.
        if (this.ctx.signal?.aborted) throw interruption(new UserError(`${step.describe}: interrupted before it was sent; the next apply sends it`));
        rec = await this.send(i, step);
      } else if (rec.status === SENDING || typeof rec.activityId !== 'string') {
        return await this.fail(this.unknownMessage(step), { outcome: 'unknown' });
      }
      if (!SUCCEEDED.has(rec.status.toLowerCase())) await this.follow(i, step);
    }
    return this.save({ status: 'succeeded' });
  }

  /** Records the step, sends it, and records the activity id at once. */
  private async send(i: number, step: MovementStep): Promise<StepRecord> {
    await this.setStep(i, { operation: step.operation, environmentId: step.environmentId, status: SENDING, at: now() });
    let result: MovementResult;
    try {
      result = await step.send();
    } catch (err) {
      if (err instanceof ServiceError && err.outcomeUnknown) return await this.fail(this.unknownMessage(step), { outcome: 'unknown' });
      // Refused before anything ran (4xx, 429, no connection, no token), or not sent because the run
      // was interrupted: forget the step so the next apply sends it.
      await this.save({ steps: this.steps.slice(0, i) });
      const notStarted = new UserError(`${step.describe} was not started: ${(err as Error).message}; the next apply sends it`, [], { cause: err });
      throw isInterruption(err) ? interruption(notStarted) : notStarted;
    }
    if (!result.IsSuccess || typeof result.OperationActivityId !== 'string') {
      const why = result.ErrorMessage ?? (result.IsSuccess ? 'no operation activity id in the answer' : 'no error message');
      return await this.fail(`${step.describe} was refused by the service: ${why}`, {}, i, 'Refused');
    }
    this.ctx.log(`${step.describe}: sent, operation ${result.OperationActivityId}`);
    return this.setStep(i, { ...this.steps[i], activityId: result.OperationActivityId, status: 'Sent', at: now() });
  }

  /** Reads the status until terminal, recording each change. */
  private async follow(i: number, step: MovementStep): Promise<void> {
    const interval = pollIntervalMs(this.ctx);
    for (;;) {
      const current = this.steps[i];
      const activityId = current.activityId;
      if (typeof activityId !== 'string') throw new Error(`${step.describe}: followed without an operation activity id`); // run() sends or refuses such a step first
      const status = await this.ctx.providers.lcs.fetchStatus(this.job.projectId, step.environmentId, activityId);
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-boolean-literal-compare -- the service's JSON may leave IsSuccess out: only an explicit false counts
      if (status.IsSuccess === false && !status.OperationStatus) {
        // The operation may still be running: an unknown outcome, which the next plan re-checks by its activity id.
        await this.fail(
          `${step.describe}: the status of operation ${activityId} could not be read: ${status.ErrorMessage ?? 'no error message'}`,
          { outcome: 'unknown' },
          i,
          'Unknown',
        );
      }
      // The provider checks OperationStatus only on a successful read: anything but a text reads as still in progress.
      const os = typeof status.OperationStatus === 'string' ? status.OperationStatus : 'InProgress';
      if (os !== current.status) {
        await this.setStep(i, { ...current, status: os, at: now() });
        this.ctx.log(`${step.describe}: ${os}`);
      }
      if (SUCCEEDED.has(os.toLowerCase())) return;
      if (FAILED.has(os.toLowerCase())) {
        const detail = status.ErrorMessage ? `: ${status.ErrorMessage}` : '';
        await this.fail(`${step.describe} ended ${os} (operation ${activityId})${detail}`, {});
      }
      // Interrupted (Ctrl-C): the wait ends at once; the activity id stays in state, so the next apply resumes following it.
      if (!(await waitUnlessAborted(sleep, interval, this.ctx.signal))) {
        throw interruption(new UserError(`${step.describe}: interrupted; the next apply resumes following operation ${activityId}`));
      }
    }
  }

  private async setStep(i: number, step: StepRecord): Promise<StepRecord> {
    const steps = [...this.steps];
    steps[i] = step;
    await this.save({ steps });
    return step;
  }

  private async save(patch: JsonObject): Promise<JobRecord> {
    this.rec = { ...this.rec, ...patch };
    await this.checkpoint(structuredClone(this.rec));
    return this.rec;
  }

  /** Records the run as failed and throws the message as a UserError (never retried). */
  private async fail(message: string, extra: JsonObject, stepIndex?: number, stepStatus?: string): Promise<never> {
    if (stepIndex !== undefined && stepStatus) await this.setStep(stepIndex, { ...this.steps[stepIndex], status: stepStatus, at: now() });
    await this.save({ status: 'failed', message, ...extra });
    throw new UserError(message);
  }

  private unknownMessage(step: MovementStep): string {
    return (
      `${step.describe}: the answer to the request was lost, so it may or may not have started. ` +
      `Check environment ${step.environmentId} of project ${this.job.projectId}: moor does not send it again ` +
      `until you resolve its outcome (moor state resolve) or change spec.revision.`
    );
  }
}

function now(): string {
  return new Date().toISOString();
}
