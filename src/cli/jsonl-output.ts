// `--output jsonl` of plan and apply: one JSON object per line and event, for pipelines and
// dashboards (like Terraform's -json). Every event has `type` and `time`; nothing else is on stdout.
import type { ApplyListener, StepOutcome } from '../engine/apply/events.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { EventSink } from '../core/events.js';
import type { Plan, PlannedChange } from '../engine/plan/types.js';
import type { TransportEvent } from '../providers/providers.js';

export type JsonlEvent = { readonly type: string } & Readonly<Record<string, unknown>>;

export type EmitEvent = (event: JsonlEvent) => void;

export function jsonlWriter(write: (line: string) => void = (l) => process.stdout.write(l)): EmitEvent {
  return ({ type, ...rest }) => write(JSON.stringify({ type, time: new Date().toISOString(), ...rest }) + '\n');
}

/** planned_change per change (checks as check), diagnostic per diagnostic, then plan_summary. */
export function emitPlan(emit: EmitEvent, plan: Plan): void {
  for (const c of plan.changes) {
    if (c.check) emit({ type: 'check', address: c.address, passed: c.check.passed, severity: c.check.severity, message: c.check.message });
    else if (c.action !== 'no-op') emit(plannedChange(c));
  }
  for (const d of plan.diagnostics) emit(diagnosticEvent(d));
  const errors = plan.diagnostics.filter((d) => d.severity === 'error').length;
  emit({ type: 'plan_summary', ...plan.summary, errors, status: errors > 0 ? 'failed' : 'planned' });
}

function plannedChange(c: PlannedChange): JsonlEvent {
  return {
    type: 'planned_change', address: c.address, kind: c.kind, action: c.action, drift: c.drift, destructive: c.destructive,
    ...(c.reason !== undefined ? { reason: c.reason } : {}),
    // Paths only: values (and secrets) stay in the plan document (`--output json`).
    fields: c.fields.map((f) => ({ path: f.path, op: f.op, cause: f.cause, sensitive: f.sensitive, forcesReplace: f.forcesReplace })),
  };
}

export function diagnosticEvent(d: Diagnostic): JsonlEvent {
  return {
    type: 'diagnostic', severity: d.severity, message: d.message,
    file: d.location?.file ?? null, line: d.location?.line ?? null, col: d.location?.col ?? null,
    address: d.address ?? null, code: d.code ?? null,
  };
}

/** step_started, progress and step_finished events of apply (no-ops and checks start nothing). */
export function jsonlListener(emit: EmitEvent): ApplyListener {
  return {
    started: (address, action) => emit({ type: 'step_started', address, action }),
    progress: (address, message) => emit({ type: 'progress', address, message }),
    finished: (o: StepOutcome) => o.action !== 'no-op' && emit({
      type: 'step_finished', address: o.address, action: o.action, status: o.status,
      ...(o.error !== undefined ? { error: o.error } : {}), ...(o.rootCause !== undefined ? { rootCause: o.rootCause } : {}),
    }),
  };
}

/** progress events of the one event stream (a kind's lines during plan); the rest has events of its own here. */
export function jsonlProgress(emit: EmitEvent): EventSink {
  return (e) => {
    if (e.type === 'progress') emit({ type: 'progress', address: e.address, message: e.message });
  };
}

/** retry events (a 429 with Retry-After is a throttle); plain request events are left out. */
export function transportEvents(emit: EmitEvent): (e: TransportEvent) => void {
  // The answer that caused a retry comes in the request event just before it (none: no connection).
  const answered = new Map<string, number>();
  return (e) => {
    const key = `${e.service} ${e.method} ${e.path}`;
    if (e.type === 'request') {
      if (e.status !== undefined) answered.set(key, e.status);
      return;
    }
    const status = answered.get(key);
    answered.delete(key);
    emit({ type: status === 429 ? 'throttle' : 'retry', service: e.service, method: e.method, path: e.path, attempt: e.attempt ?? null, status: status ?? null, delayMs: e.delayMs ?? null });
  };
}

export function applySummaryEvent(outcomes: readonly StepOutcome[], line: string): JsonlEvent {
  const count = (status: string, action?: string) => outcomes.filter((o) => o.status === status && o.action !== 'no-op' && (!action || o.action === action)).length;
  const failed = count('failed');
  const skipped = count('skipped');
  return {
    type: 'apply_summary', status: failed || skipped ? 'incomplete' : 'complete',
    created: count('done', 'create'), updated: count('done', 'update'), replaced: count('done', 'replace'),
    deleted: count('done', 'delete'), run: count('done', 'run'), failed, skipped,
    rootCauses: outcomes.filter((o) => o.status === 'failed').map((o) => ({ address: o.address, error: o.error ?? null })),
    message: line.split('\n').pop(),
  };
}
