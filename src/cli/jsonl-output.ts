// `--output jsonl` of plan and apply: one JSON object per line and event, for pipelines and
// dashboards (like Terraform's -json). Every event has `type` and `time`; nothing else is on stdout.
import { jsonText } from '../core/foreign-text.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { countOutcomes } from '../core/apply-counts.js';
import type { EventSink, StepOutcome } from '../core/events.js';
import type { Plan, PlannedChange } from '../engine/plan/types.js';
import { appliesInPart } from '../engine/render/summary-line.js';

export type JsonlEvent = { readonly type: string } & Readonly<Record<string, unknown>>;

export type EmitEvent = (event: JsonlEvent) => void;

export function jsonlWriter(write: (line: string) => void): EmitEvent {
  return ({ type, ...rest }) => write(jsonText({ type, time: new Date().toISOString(), ...rest }) + '\n');
}

/**
 * planned_change per change (checks as check), diagnostic per diagnostic, then plan_summary:
 * status `planned`, `failed`, or `partial` when the only errors are jobs of unknown outcome (as
 * the last line says, apply carries out the rest and holds back what waits for them).
 */
export function emitPlan(emit: EmitEvent, plan: Plan, mode: 'plan' | 'drift' = 'plan'): void {
  for (const c of plan.changes) {
    if (c.check) emit({ type: 'check', address: c.address, passed: c.check.passed, severity: c.check.severity, message: c.check.message });
    else if (c.action !== 'no-op') emit(plannedChange(c));
  }
  for (const d of plan.diagnostics) emit(diagnosticEvent(d));
  const errors = plan.diagnostics.filter((d) => d.severity === 'error').length;
  const status = errors === 0 ? 'planned' : appliesInPart(mode, plan.diagnostics) ? 'partial' : 'failed';
  emit({ type: 'plan_summary', ...plan.summary, errors, status });
}

function plannedChange(c: PlannedChange): JsonlEvent {
  return {
    type: 'planned_change',
    address: c.address,
    kind: c.kind,
    action: c.action,
    drift: c.drift,
    destructive: c.destructive,
    ...(c.reason !== undefined ? { reason: c.reason } : {}),
    ...(c.reasonCode !== undefined ? { reasonCode: c.reasonCode } : {}),
    ...(c.heldBackBy !== undefined ? { heldBackBy: c.heldBackBy } : {}),
    // Paths only: values (and secrets) stay in the plan document (`--output json`).
    fields: c.fields.map((f) => ({ path: f.path, op: f.op, cause: f.cause, sensitive: f.sensitive, forcesReplace: f.forcesReplace })),
  };
}

export function diagnosticEvent(d: Diagnostic): JsonlEvent {
  return {
    type: 'diagnostic',
    severity: d.severity,
    message: d.message,
    file: d.location?.file ?? null,
    line: d.location?.line ?? null,
    col: d.location?.col ?? null,
    address: d.address ?? null,
    code: d.code ?? null,
    ...(d.policy !== undefined ? { policy: d.policy } : {}),
  };
}

/**
 * The run's events as jsonl lines: step_started, progress (while planning too), step_finished,
 * retry and throttle (service, path, attempt, delay; the step's address when the request is a
 * step's). Planned changes come from the plan document (emitPlan: in plan order, with their
 * fields); poll waits, answers and notices have no line.
 */
export function jsonlSink(emit: EmitEvent): EventSink {
  // A no-op that started waits for an earlier write the service still carries out: it finishes too.
  const started = new Set<string>();
  return (e) => {
    if (e.type === 'step_started') {
      started.add(e.address);
      emit({ type: 'step_started', address: e.address, action: e.action });
    } else if (e.type === 'progress') emit({ type: 'progress', address: e.address, message: e.message });
    else if (e.type === 'step_finished') stepFinished(emit, e.outcome, started.has(e.outcome.address));
    else if (e.type === 'request_retried' || e.type === 'throttled') {
      emit({
        type: e.type === 'throttled' ? 'throttle' : 'retry',
        service: e.service,
        method: e.method,
        path: e.path,
        attempt: e.attempt ?? null,
        status: e.status ?? null,
        delayMs: e.delayMs,
        ...(e.address !== undefined ? { address: e.address } : {}),
      });
    }
  };
}

/** No-ops and checks start nothing, so they finish nothing either. */
function stepFinished(emit: EmitEvent, o: StepOutcome, started: boolean): void {
  if (o.action === 'no-op' && !started) return;
  emit({
    type: 'step_finished',
    address: o.address,
    action: o.action,
    status: o.status,
    ...(o.error !== undefined ? { error: o.error } : {}),
    ...(o.rootCause !== undefined ? { rootCause: o.rootCause } : {}),
  });
}

export function applySummaryEvent(outcomes: readonly StepOutcome[], line: string): JsonlEvent {
  const { incomplete, created, updated, replaced, deleted, run, failed, refused, interrupted, skipped } = countOutcomes(outcomes);
  return {
    type: 'apply_summary',
    status: incomplete ? 'incomplete' : 'complete',
    created,
    updated,
    replaced,
    deleted,
    run,
    failed,
    refused,
    interrupted,
    skipped,
    // An interrupted step is the root cause of its dependents' skips as a failed one is.
    rootCauses: outcomes.filter((o) => o.status === 'failed' || o.status === 'interrupted').map((o) => ({ address: o.address, error: o.error ?? null })),
    message: line.split('\n').pop(),
  };
}
