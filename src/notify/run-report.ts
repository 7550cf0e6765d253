// Notifications: what a plan, apply or drift run says, as neutral lines the message text and the card both render.
import { formatDiagnostic, hasErrors } from '../core/diagnostics.js';
import { driftLine, failureLine } from '../engine/render/summary-line.js';
import { driftedCount, unverifiedCount } from '../engine/render/plan-view.js';
import { lineText } from '../core/foreign-text.js';
import { changesDone, countOutcomes } from '../core/apply-counts.js';
import { countsAsChange, type StepOutcome } from '../core/events.js';
import { nothingSentInterruption } from '../core/interrupted-note.js';
import type { JsonValue } from '../core/json.js';
import { ACTION_GLYPH, type FieldChange, type Plan, type PlannedChange } from '../engine/plan/types.js';
import type { StackIdentity } from './stack-identity.js';
import { driftAnswers } from '../engine/render/drift-answers.js';

export type RunKind = 'plan' | 'apply' | 'drift';

/** One changed (or drifted, or applied) address. */
export interface ReportEntry {
  readonly glyph: string;
  readonly address: string;
  /** 'update', 'drift', 'create: done', 'update: failed' … */
  readonly action: string;
  /** Changed fields as `path: before → after`, at most a few. */
  readonly details: readonly string[];
}

export interface RunReport {
  readonly run: RunKind;
  readonly stack: StackIdentity;
  /** `moor drift · stack-name` */
  readonly title: string;
  /** Terraform-style summary line. */
  readonly summaryLine: string;
  readonly entries: readonly ReportEntry[];
  /** Failed steps, failing checks and error diagnostics, one line each. */
  readonly failures: readonly string[];
  readonly status: 'ok' | 'changes' | 'failed';
}

const MAX_FIELDS_PER_ENTRY = 5;
const MAX_VALUE_CHARS = 60;

export function runReport(run: RunKind, stack: StackIdentity, plan: Plan, outcomes?: readonly StepOutcome[]): RunReport {
  const changed = plan.changes.filter((c) => c.action !== 'no-op');
  const byAddress = new Map((outcomes ?? []).map((o) => [o.address, o]));
  const entries = changed.map((c) => entryOf(run, c, byAddress.get(c.address), stack.stack));
  // Each line quotes manifests' and services' text: it stays one line in the message and the card.
  const failures = [
    ...(outcomes ?? []).filter((o) => o.status !== 'done').map((o) => outcomeFailure(o, byAddress)),
    ...plan.changes.flatMap(({ address, check }) =>
      check && !check.passed ? [`${address}: check ${check.severity === 'error' ? 'failed' : 'warning'}: ${check.message}`] : [],
    ),
    ...plan.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic),
  ].map(lineText);
  const status = failures.length > 0 ? 'failed' : entries.length > 0 ? 'changes' : 'ok';
  return {
    run,
    stack,
    title: lineText(`moor ${run} · ${stack.name}`),
    summaryLine: lineText(summaryLine(run, plan, changed, outcomes)),
    entries,
    failures,
    status,
  };
}

function entryOf(run: RunKind, c: PlannedChange, outcome: StepOutcome | undefined, stack: string | undefined): ReportEntry {
  // apply --refresh-only's outcomes say what it did instead (refresh, forget): nothing live changed.
  const did = outcome && REFRESH_ACTIONS.has(outcome.action) ? outcome.action : c.action;
  const action = run === 'drift' ? 'drifted' : outcome ? `${did}: ${outcome.status}` : c.action;
  const details = c.fields.slice(0, MAX_FIELDS_PER_ENTRY).map(run === 'drift' ? driftedFieldLine : fieldLine);
  if (c.fields.length > MAX_FIELDS_PER_ENTRY) details.push(`… and ${c.fields.length - MAX_FIELDS_PER_ENTRY} more`);
  if (details.length === 0 && c.reason) details.push(c.reason);
  // A drifted resource: how to keep the hand change (the other answers are apply, or ignoreChanges).
  const answers = run === 'drift' && c.action !== 'create' ? driftAnswers(c, stack) : undefined;
  if (answers) details.push(`accept it into the manifests: ${answers.accept}`);
  return { glyph: ACTION_GLYPH[c.action], address: lineText(c.address), action, details: details.map(lineText) };
}

function fieldLine(f: FieldChange): string {
  const path = f.path || '/';
  if (f.op === 'add') return `${path}: + ${value(f.after, f.sensitive)}`;
  if (f.op === 'remove') return `${path}: - ${value(f.before, f.sensitive)}`;
  return `${path}: ${value(f.before, f.sensitive)} → ${value(f.after, f.sensitive)}`;
}

/** A drifted field as it moved: the manifest's value before, the live one after (a secret masked). */
function driftedFieldLine(f: FieldChange): string {
  const path = f.path || '/';
  const was = f.op === 'remove' ? '(not set)' : value(f.after, f.sensitive);
  const now = f.op === 'add' ? '(gone)' : value(f.before, f.sensitive);
  return `${path}: ${was} → ${now} (live)`;
}

/** A short rendering; a sensitive field never shows its value, whatever the plan carries. */
export function value(v: JsonValue | undefined, sensitive: boolean): string {
  if (sensitive) return '(sensitive)';
  if (v === undefined) return '(none)';
  const text = JSON.stringify(v);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

function outcomeFailure(o: StepOutcome, byAddress: ReadonlyMap<string, StepOutcome>): string {
  if (o.status === 'interrupted') {
    // Its raw error would claim that what it sent goes on at the service.
    const nothingSent = nothingSentInterruption(o);
    return nothingSent ? `${o.address}: ${nothingSent}` : `${o.address}: ${o.action} interrupted${o.error ? `: ${o.error}` : ''}`;
  }
  if (o.status === 'skipped') return `${o.address}: ${skippedBecause(o.rootCause, byAddress)}`;
  // A no-op that failed sent nothing: a job of unknown outcome, its error says why.
  if (o.action === 'no-op') return `${o.address}: ${o.error ?? 'did not succeed'}`;
  return `${o.address}: ${o.action} failed${o.error ? `: ${o.error}` : ''}`;
}

/** A root cause is an address, or `interrupted` (Ctrl-C before the step started); an interrupted one did not fail. */
function skippedBecause(rootCause: string | undefined, byAddress: ReadonlyMap<string, StepOutcome>): string {
  if (rootCause === undefined) return 'skipped';
  if (rootCause === 'interrupted') return 'skipped: the apply was interrupted before it started';
  const root = byAddress.get(rootCause);
  const what = root?.status === 'interrupted' ? 'was interrupted' : root && !countsAsChange(root) ? 'did not succeed' : 'failed';
  return `skipped because ${rootCause} ${what}`;
}

/** The actions of apply --refresh-only's outcomes: accepted live into state, or forgot a gone resource. */
const REFRESH_ACTIONS: ReadonlySet<string> = new Set(['refresh', 'forget']);

function summaryLine(run: RunKind, plan: Plan, changed: readonly PlannedChange[], outcomes?: readonly StepOutcome[]): string {
  if (run === 'drift') return driftSummary(plan);
  const s = plan.summary;
  const planLine = `Plan: ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.delete} to delete, ${s.run} to run.`;
  if (run === 'plan' || !outcomes) return planLine;
  if (outcomes.length > 0 && outcomes.every((o) => REFRESH_ACTIONS.has(o.action))) return refreshLine(outcomes);
  // Counted as the closing line counts them (core/apply-counts).
  const c = countOutcomes(outcomes);
  const interrupted = c.interrupted > 0 ? `${c.interrupted} interrupted, ` : '';
  const refused = c.refused > 0 ? `${c.refused} refused, ` : '';
  return `Apply: ${changesDone(c)} done, ${c.failed} failed, ${refused}${interrupted}${c.skipped} skipped. ${planLine}`;
}

/**
 * The drift report's last lines as the terminal prints them: what drifted and what could not be
 * compared (not in state), and a failed check's cause instead of a no-drift line it could not know.
 */
function driftSummary(plan: Plan): string {
  const failed = hasErrors(plan.diagnostics);
  const drifted = driftedCount(plan);
  const lines: string[] = [];
  if (!failed || drifted > 0) lines.push(driftLine(drifted, unverifiedCount(plan)));
  if (failed) lines.push(failureLine('drift', plan.diagnostics, plan.changes));
  return lines.join(' ');
}

/** As apply --refresh-only's own closing line says it. */
function refreshLine(outcomes: readonly StepOutcome[]): string {
  const done = outcomes.filter((o) => o.status === 'done');
  const forgotten = done.filter((o) => o.action === 'forget').length;
  const refused = outcomes.length - done.length;
  return `Refresh: ${done.length - forgotten} accepted from live into state, ${forgotten} gone and forgotten${refused ? `, ${refused} refused` : ''}; nothing live was changed.`;
}
