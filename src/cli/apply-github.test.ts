import { describe, expect, it } from 'vitest';
import type { StepOutcome } from '../core/events.js';
import { annotation } from './github-output.js';
import { applySummaryMarkdown, failedStepDiagnostics, refreshSummaryMarkdown } from './apply-github.js';
import { refreshSummary } from './refresh-summary.js';

const outcomes: StepOutcome[] = [
  { address: 'AuthContext/c1', action: 'create', status: 'done' },
  { address: 'ContainerGroup/web', action: 'update', status: 'failed', error: 'Conflict (409, request id r-1): busy' },
  { address: 'DatabaseExport/nightly', action: 'run', status: 'skipped', rootCause: 'ContainerGroup/web' },
];

describe('apply --output github', () => {
  it('annotates each failed step, and only those, with its address and the service error', () => {
    expect(failedStepDiagnostics(outcomes).map((d) => annotation(d, process.cwd()))).toEqual([
      '::error::ContainerGroup/web: update failed: Conflict (409, request id r-1): busy',
    ]);
  });

  it('the job summary says the apply is incomplete, with the root cause and the counts', () => {
    const md = applySummaryMarkdown(outcomes);
    expect(md).toMatch(/^### moor apply\n\n\*\*❌ Apply incomplete: 1 created/);
    expect(md).toContain('ContainerGroup/web: Conflict (409, request id r-1): busy (skipped because of it: DatabaseExport/nightly)');
  });

  it('a job of unknown outcome (a no-op that failed: nothing was sent) is annotated with its reason, not as a failed no-op', () => {
    const unknown: StepOutcome = { address: 'DatabaseExport/e', action: 'no-op', status: 'failed', error: 'the outcome of revision r1 is unknown' };
    expect(failedStepDiagnostics([unknown]).map((d) => annotation(d, process.cwd()))).toEqual([
      '::error::DatabaseExport/e: the outcome of revision r1 is unknown',
    ]);
  });

  it('an interrupted step that had sent no change is annotated as the progress line says it, not with its raw error', () => {
    const waited: StepOutcome = {
      address: 'ContainerGroup/g',
      action: 'no-op',
      status: 'interrupted',
      error: 'containerGroups/g: interrupted while waiting for the operation to finish; it goes on at the service, and the next plan reads where it got to',
      sentNoChange: true,
    };
    const queued: StepOutcome = {
      address: 'AuthContext/c8',
      action: 'update',
      status: 'interrupted',
      error: 'PUT /c8: interrupted while waiting for its turn',
      sentNoChange: true,
    };
    expect(failedStepDiagnostics([waited, queued]).map((d) => annotation(d, process.cwd()))).toEqual([
      '::warning::ContainerGroup/g: interrupted (it had sent no change; the next plan reads where things got to)',
      '::warning::AuthContext/c8: update interrupted (it had sent no change; the next plan reads where things got to)',
    ]);
  });

  it('a complete apply is a success line', () => {
    expect(applySummaryMarkdown(outcomes.slice(0, 1))).toContain('**✅ Apply complete: 1 created, 0 updated');
  });

  it('apply --refresh-only: the job summary says what was accepted, and a refused refresh fails it with its cause', () => {
    const refused: StepOutcome[] = [
      { address: 'AuthContext/c1', action: 'refresh', status: 'done' },
      { address: 'ContainerGroup/web', action: 'refresh', status: 'failed', error: 'Forbidden (403, request id r-2)' },
    ];
    const md = refreshSummaryMarkdown(refused, refreshSummary(refused));
    expect(md).toMatch(
      /^### moor apply --refresh-only\n\n\*\*❌ Refresh incomplete: 1 accepted from live into state, 0 gone and forgotten; 1 refused; nothing live was changed\.\*\*/,
    );
    expect(md).toContain('ContainerGroup/web: Forbidden (403, request id r-2)');
    expect(refreshSummaryMarkdown(refused.slice(0, 1), refreshSummary(refused.slice(0, 1)))).toContain('**✅ Refresh complete: 1 accepted');
  });
});
