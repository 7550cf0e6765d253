// Plans as one machine-readable JSON document (format moor-plan/1), with secrets masked defensively.
import { SENSITIVE_MASK } from '../secrets.js';
import { fromPointer } from '../json.js';
import type { JsonObject, JsonValue } from '../json.js';
import type { Diagnostic } from '../diagnostics.js';
import type { FieldChange, PatchOp, Plan, PlannedChange } from '../plan/types.js';

/** The `--output json` document; stable keys, null where a diagnostic has no location, address or code. */
export function renderPlanJson(plan: Plan): string {
  const doc: JsonObject = {
    format: 'moor-plan/1',
    serial: plan.serial,
    changes: plan.changes.map(changeJson),
    summary: { ...plan.summary },
    diagnostics: plan.diagnostics.map(diagnosticJson),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

function changeJson(c: PlannedChange): JsonObject {
  const sensitive = c.fields.filter((f) => f.sensitive).map((f) => fromPointer(f.path));
  return {
    address: c.address,
    kind: c.kind,
    action: c.action,
    patch: c.patch.map((op) => patchJson(op, sensitive)),
    drift: c.drift,
    destructive: c.destructive,
    ...(c.reason !== undefined ? { reason: c.reason } : {}),
    fields: c.fields.map(fieldJson),
    ...(c.check ? { check: { passed: c.check.passed, severity: c.check.severity, message: c.check.message } } : {}),
  };
}

function fieldJson(f: FieldChange): JsonObject {
  const mask = (v: JsonValue | undefined) => (f.sensitive ? SENSITIVE_MASK : v);
  return {
    path: f.path,
    op: f.op,
    ...(f.before !== undefined ? { before: mask(f.before) as JsonValue } : {}),
    ...(f.after !== undefined ? { after: mask(f.after) as JsonValue } : {}),
    cause: f.cause,
    sensitive: f.sensitive,
    forcesReplace: f.forcesReplace,
  };
}

/** A patch value touching a sensitive field (at, under or above it) is masked, whatever the planner put there. */
function patchJson(op: PatchOp, sensitive: ReadonlyArray<string[]>): JsonObject {
  const path = fromPointer(op.path);
  const touches = sensitive.some((s) => startsWith(path, s) || startsWith(s, path));
  const out: JsonObject = { op: op.op, path: op.path };
  if (op.value !== undefined) out.value = touches ? SENSITIVE_MASK : op.value;
  return out;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((seg, i) => seg === path[i]);
}

function diagnosticJson(d: Diagnostic): JsonObject {
  return {
    file: d.location?.file ?? null,
    line: d.location?.line ?? null,
    col: d.location?.col ?? null,
    severity: d.severity,
    message: d.message,
    address: d.address ?? null,
    code: d.code ?? null,
  };
}
