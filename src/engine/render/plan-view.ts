// What a rendering shows of a plan: which changes and fields (plan or drift mode), and how each is headed.
import { NOT_IN_STATE } from './summary-line.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import type { CheckOutcome, FieldChange, Plan, PlannedChange } from '../plan/types.js';

export type RenderMode = 'plan' | 'drift';

/** Changes shown as blocks: anything but no-ops and checks; in drift mode only drifted ones. */
export function shownChanges(plan: Plan, mode: RenderMode): PlannedChange[] {
  return plan.changes.filter((c) => !c.check && (c.action !== 'no-op' || (mode === 'plan' && c.movedFrom !== undefined)) && (mode === 'plan' || isDrifted(c)));
}

/** Fields shown under a change: all in plan mode (a create's after-values), the drifted ones in drift mode. */
export function shownFields(change: PlannedChange, mode: RenderMode): FieldChange[] {
  // A resource that no longer exists is one line in a drift report, not the fields it would be made with.
  if (mode === 'drift' && change.action === 'create') return [];
  return change.fields.filter((f) => mode === 'plan' || f.cause === 'drift');
}

export function isDrifted(c: PlannedChange): boolean {
  return c.drift || c.fields.some((f) => f.cause === 'drift');
}

export function driftedCount(plan: Plan): number {
  return plan.changes.filter((c) => !c.check && isDrifted(c)).length;
}

/** Manifests drift could not compare: state has no record of them. */
export function unverifiedCount(plan: Plan): number {
  return plan.diagnostics.filter((d) => d.code === NOT_IN_STATE).length;
}

export function checkChanges(plan: Plan): (PlannedChange & { check: CheckOutcome })[] {
  return plan.changes.filter((c): c is PlannedChange & { check: CheckOutcome } => c.check !== undefined);
}

/**
 * The diagnostics a text report prints below its Checks list: without the warning of a failed
 * warning-severity check, which the list already shows with its warn mark (an error stays: it fails the plan).
 */
export function diagnosticsBesideChecks(plan: Plan): Diagnostic[] {
  const listed = new Set(checkChanges(plan).map((c) => c.address));
  return plan.diagnostics.filter((d) => !(d.code === 'check' && d.severity === 'warning' && d.address !== undefined && listed.has(d.address)));
}

/** 'ok', 'FAIL' or 'warn' (a failed check of severity warning). */
export function checkLabel(check: CheckOutcome): 'ok' | 'FAIL' | 'warn' {
  if (check.passed) return 'ok';
  return check.severity === 'warning' ? 'warn' : 'FAIL';
}

/** What will happen to an address, after its glyph: 'will be created', 'has drifted'... */
export function headline(c: PlannedChange, mode: RenderMode): string {
  if (mode === 'drift') {
    if (c.action === 'create') return 'no longer exists';
    if (c.action === 'replace') return 'has drifted (restoring it needs a replace)';
    return 'has drifted';
  }
  const moved = c.movedFrom ? ` (moved from ${c.movedFrom})` : '';
  return planHeadline(c) + (c.action === 'no-op' ? '' : moved);
}

function planHeadline(c: PlannedChange): string {
  switch (c.action) {
    case 'create':
      return 'will be created';
    case 'update':
      return 'will be updated in place';
    case 'replace':
      return c.destructive ? 'must be replaced (destructive)' : 'must be replaced';
    case 'delete':
      return c.destructive ? 'will be deleted (destructive)' : 'will be deleted';
    case 'run':
      return c.destructive ? 'will run (destructive: it overwrites data)' : 'will run';
    case 'no-op':
      return c.movedFrom ? `has moved from ${c.movedFrom} (apply moves its state record)` : 'is unchanged';
  }
}
