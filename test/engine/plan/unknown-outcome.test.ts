// Planning a job whose outcome is unknown: re-checked with the service when it can tell, else an
// error that blocks its dependents (not the whole apply); a run resolved as failed runs again.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/engine/load/index.js';
import type { Providers } from '../../../src/providers/providers.js';
import type { JobRecord, KindContext } from '../../../src/core/kind.js';
import type { StateDocument } from '../../../src/engine/state/types.js';
import { applyPlan } from '../../../src/engine/apply/applier.js';
import { StateRecorder } from '../../../src/engine/state/recorder.js';
import type { StateBackend } from '../../../src/engine/state/types.js';
import { makePlan } from '../../../src/engine/plan/planner.js';
import { blockingErrors, UNKNOWN_OUTCOME } from '../../../src/engine/plan/unknown-outcome.js';
import type { PlannedStep } from '../../../src/engine/plan/steps.js';
import { BUILT_IN_KINDS } from '../../../src/resources/registry.js';

const MANIFEST = `apiVersion: moor/v1
kind: DatabaseExport
metadata:
  name: nightly
spec:
  projectId: "1234567"
  environmentId: env-test
  backupName: nightly-1
  revision: "1"
`;

const DEPENDENT = `---
apiVersion: moor/v1
kind: DatabaseRefresh
metadata:
  name: after
  dependsOn: [DatabaseExport/nightly]
spec:
  projectId: "1234567"
  sourceEnvironmentId: env-prod
  targetEnvironmentId: env-test
  revision: "1"
`;

async function planWith(run: JobRecord, status?: string, extra = '') {
  const dir = mkdtempSync(join(tmpdir(), 'moor-unknown-'));
  writeFileSync(join(dir, 'm.yaml'), MANIFEST + extra);
  const { manifests } = await loadManifests([dir], BUILT_IN_KINDS, { cwd: process.cwd() });
  const reads: string[] = [];
  const sent: string[] = [];
  const lcs = {
    fetchStatus: async (_p: string, _env: string, id: string) => {
      reads.push(id);
      if (id.startsWith('new-')) return { IsSuccess: true, OperationActivityId: id, OperationStatus: 'Completed' };
      return status ? { IsSuccess: true, OperationActivityId: id, OperationStatus: status } : { IsSuccess: false, ErrorMessage: 'not known' };
    },
    exportDatabase: async (_p: string, env: string, backup: string) => {
      sent.push(`export:${env}:${backup}`);
      return { IsSuccess: true, OperationActivityId: `new-${sent.length}` };
    },
    refreshDatabase: async (_p: string, _s: string, target: string) => {
      sent.push(`refresh:${target}`);
      return { IsSuccess: true, OperationActivityId: `new-${sent.length}` };
    },
  };
  // Only the LCS client is used by this kind.
  // Only the LCS client, the same whichever step calls it.
  const providers = { lcs, forRequests: () => providers } as unknown as Providers;
  const ctx: KindContext = { providers, log: () => undefined, pollIntervalMs: 0 };
  const state: StateDocument = {
    version: 1,
    serial: 4,
    resources: { 'DatabaseExport/nightly': { kind: 'DatabaseExport', name: 'nightly', lastApplied: { revision: '1' }, runs: [run], updatedAt: 't' } },
  };
  const result = await makePlan({ manifests, kinds: BUILT_IN_KINDS, state, ctx, resolve: { env: {} }, parallelism: 1 });
  return { ...result, reads, sent, manifests, ctx, state, dir };
}

/** Just enough of a backend for the recorder: appended changes succeed. */
function memoryBackend(initial: StateDocument): StateBackend {
  let serial = initial.serial;
  return {
    location: 'memory',
    read: async () => initial,
    write: async (next) => ({ ...next, version: 1, serial: ++serial }),
    appendChanges: async () => ++serial,
    lock: async () => {
      throw new Error('not used');
    },
    unlock: async () => undefined,
    forceUnlock: async () => undefined,
    close: async () => undefined,
  };
}

const lostSend: JobRecord = {
  revision: '1',
  status: 'failed',
  outcome: 'unknown',
  message: 'the answer was lost',
  steps: [{ operation: 'export', environmentId: 'env-test', status: 'Sending', at: 't' }],
};
const lostStatus: JobRecord = {
  revision: '1',
  status: 'failed',
  outcome: 'unknown',
  steps: [{ operation: 'export', environmentId: 'env-test', activityId: 'op-1', status: 'Unknown', at: 't' }],
};

/** What apply reports for a step whose outcome is unknown; undefined for any other step. */
const unresolvedOf = (s: PlannedStep): string | undefined => (s.intent === 'unresolved' ? s.why : undefined);

describe('planning an unknown outcome', () => {
  it('the service cannot tell: an unknown-outcome error naming state resolve, and an unresolved no-op step', async () => {
    const { plan, steps, reads } = await planWith(lostSend);
    expect(reads).toEqual([]);
    expect(plan.changes[0]).toMatchObject({ address: 'DatabaseExport/nightly', action: 'no-op' });
    expect(unresolvedOf(steps[0])).toMatch(/outcome of revision 1 is unknown.*moor state resolve DatabaseExport\/nightly --succeeded/);
    expect(plan.diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: UNKNOWN_OUTCOME, address: 'DatabaseExport/nightly' })]);
    expect(plan.diagnostics[0].location?.line).toBe(9);
    // It fails plan and drift, but does not refuse the apply of everything else.
    expect(blockingErrors(plan.diagnostics)).toEqual([]);
  });

  it('a run a crash left started while its request was being sent is unknown at once, before any apply', async () => {
    const { plan, steps, reads } = await planWith({
      revision: '1',
      status: 'started',
      steps: [{ operation: 'export', environmentId: 'env-test', status: 'Sending', at: 't' }],
    });
    expect(reads).toEqual([]);
    expect(plan.changes[0].action).toBe('no-op');
    expect(unresolvedOf(steps[0])).toBeDefined();
    expect(plan.diagnostics[0]).toMatchObject({ code: UNKNOWN_OUTCOME, message: expect.stringContaining('the answer to its request was lost in a crash') });
  });

  it('a run a crash left started while it was being followed resumes', async () => {
    const { plan } = await planWith({
      revision: '1',
      status: 'started',
      steps: [{ operation: 'export', environmentId: 'env-test', activityId: 'op-1', status: 'InProgress', at: 't' }],
    });
    expect(plan.changes[0]).toMatchObject({ action: 'run', reason: expect.stringContaining('resumes following'), reasonCode: 'resumes-started' });
    expect(plan.diagnostics).toEqual([]);
  });

  it('a dependent is planned with a reason saying it waits for the unknown outcome', async () => {
    const { plan } = await planWith(lostSend, undefined, DEPENDENT);
    const after = plan.changes.find((c) => c.address === 'DatabaseRefresh/after');
    expect(after).toMatchObject({
      action: 'run',
      reason: 'never run (revision 1); skipped until the outcome of DatabaseExport/nightly is resolved',
      reasonCode: 'held-back',
    });
  });

  it('apply fails the unresolved job, skips what depends on it, and applies the rest', async () => {
    const independent = `---
apiVersion: moor/v1
kind: DatabaseExport
metadata:
  name: other
spec:
  projectId: "1234567"
  environmentId: env-dev
  backupName: other-1
  revision: "1"
`;
    const p = await planWith(lostSend, undefined, DEPENDENT + independent);
    const recorder = new StateRecorder(memoryBackend(p.state), p.state);
    const outcomes = await applyPlan({ steps: p.steps, manifests: p.manifests, recorder, ctx: p.ctx, resolve: { env: {} }, parallelism: 4 });
    const by = Object.fromEntries(outcomes.map((o) => [o.address, o]));
    expect(by['DatabaseExport/nightly']).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('moor state resolve DatabaseExport/nightly --succeeded'),
    });
    expect(by['DatabaseRefresh/after']).toMatchObject({ status: 'skipped', rootCause: 'DatabaseExport/nightly' });
    expect(by['DatabaseExport/other']).toMatchObject({ status: 'done' });
    expect(p.sent).toEqual(['export:env-dev:other-1']);
    // The unknown run is left as it was, for the next plan to report again.
    expect(recorder.record('DatabaseExport/nightly')?.runs).toEqual([lostSend]);
  });

  it('the status endpoint knows the operation: the run resumes from what the service reports', async () => {
    const { plan, steps, reads } = await planWith(lostStatus, 'Completed');
    expect(reads).toEqual(['op-1']);
    expect(plan.diagnostics).toEqual([]);
    expect(plan.changes[0]).toMatchObject({
      action: 'run',
      reason: expect.stringMatching(/outcome was unknown, the service knows it now/),
      reasonCode: 'resumes-unknown',
    });
    expect(unresolvedOf(steps[0])).toBeUndefined();
    expect(steps[0].record?.runs?.at(-1)).toMatchObject({ status: 'started', steps: [{ activityId: 'op-1', status: 'Completed' }] });
  });

  it('the status endpoint cannot say either: still unknown', async () => {
    const { plan, reads } = await planWith(lostStatus);
    expect(reads).toEqual(['op-1']);
    expect(plan.diagnostics.map((d) => d.code)).toEqual([UNKNOWN_OUTCOME]);
    expect(plan.changes[0]).toMatchObject({ action: 'no-op', reason: 'the outcome of revision 1 is unknown', reasonCode: 'outcome-unknown' });
  });

  it('a run the user resolved as failed runs again; one resolved as succeeded is done', async () => {
    const failed = await planWith({ revision: '1', status: 'failed', resolved: 'failed', steps: [] });
    expect(failed.plan.changes[0]).toMatchObject({ action: 'run', reason: expect.stringMatching(/resolved as failed/), reasonCode: 'resolved-failed' });
    const succeeded = await planWith({ revision: '1', status: 'succeeded', resolved: 'succeeded', steps: [] });
    expect(succeeded.plan.changes[0].action).toBe('no-op');
    expect(succeeded.plan.diagnostics).toEqual([]);
  });

  it('a failed run with a known outcome stays a warning and is not retried', async () => {
    const { plan, steps } = await planWith({ revision: '1', status: 'failed', message: 'ended Failed' });
    expect(plan.changes[0].action).toBe('no-op');
    expect(unresolvedOf(steps[0])).toBeUndefined();
    expect(plan.diagnostics).toEqual([expect.objectContaining({ severity: 'warning' })]);
  });

  it('a job whose run of this revision failed keeps what depends on it from running (no refresh without its backup)', async () => {
    const failedExport: JobRecord = { revision: '1', status: 'failed', message: 'ended Failed' };
    const p = await planWith(failedExport, undefined, DEPENDENT);
    expect(p.plan.changes.find((c) => c.address === 'DatabaseRefresh/after')).toMatchObject({
      action: 'run',
      reason: 'never run (revision 1); skipped until DatabaseExport/nightly runs successfully (change its revision)',
      reasonCode: 'held-back',
    });
    const recorder = new StateRecorder(memoryBackend(p.state), p.state);
    const outcomes = await applyPlan({ steps: p.steps, manifests: p.manifests, recorder, ctx: p.ctx, resolve: { env: {} }, parallelism: 4 });
    const by = Object.fromEntries(outcomes.map((o) => [o.address, o]));
    expect(by['DatabaseExport/nightly']).toMatchObject({ status: 'done', blocks: 'revision 1 failed' });
    expect(by['DatabaseRefresh/after']).toMatchObject({ status: 'skipped', rootCause: 'DatabaseExport/nightly' });
    expect(p.sent).toEqual([]);
  });
});
