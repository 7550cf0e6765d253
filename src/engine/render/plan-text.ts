// Plan and drift reports as terminal text, after Terraform's habits: + ~ -/+ - !, old → new, a summary line.
import { formatDiagnostic, hasErrors, sortDiagnostics } from '../../core/diagnostics.js';
import { lineText } from '../../core/foreign-text.js';
import { ACTION_GLYPH } from '../plan/types.js';
import type { FieldChange, Plan, PlannedChange } from '../plan/types.js';
import { ACTION_STYLE, FIELD_OP_STYLE, painter } from './ansi.js';
import type { Paint } from './ansi.js';
import { causeLabel, fieldValue, removalNote, RESENT_LABEL } from './format-value.js';
import { checkChanges, checkLabel, diagnosticsBesideChecks, driftedCount, headline, unverifiedCount, shownChanges, shownFields } from './plan-view.js';
import type { RenderMode } from './plan-view.js';
import { adoptedSecretsLine, driftLine, failureLine, ignoredLine, INCOMPLETE, NO_CHANGES, stackNamed, summaryLine } from './summary-line.js';

export interface TextOptions {
  /** ANSI colour; the CLI turns it on only on a TTY without NO_COLOR. */
  readonly color: boolean;
  readonly mode: RenderMode;
  /** The stack selected: the summary lines name it (`stack dev: Plan: …`). */
  readonly stack?: string;
}

const FIELD_GLYPH: Readonly<Record<FieldChange['op'], string>> = { add: '+', remove: '-', replace: '~' };

export function renderPlanText(plan: Plan, options: TextOptions): string {
  const paint = painter(options.color);
  const changes = shownChanges(plan, options.mode);
  const out: string[] = [];
  if (changes.length > 0) {
    out.push(options.mode === 'drift' ? 'Live resources differ from the last apply (live → last applied):' : 'moor will perform the following actions:', '');
    for (const c of changes) out.push(...changeBlock(c, options.mode, paint), '');
  } else if (options.mode === 'plan') {
    out.push(hasErrors(plan.diagnostics) ? INCOMPLETE : NO_CHANGES, '');
  }
  out.push(...checksSection(plan, paint));
  const diagnostics = diagnosticsBesideChecks(plan);
  if (diagnostics.length > 0) out.push(...sortDiagnostics(diagnostics).map(formatDiagnostic), '');
  const failed = hasErrors(plan.diagnostics);
  const named = stackNamed(options.stack);
  const ignored = ignoredLine(plan.changes);
  if (ignored) out.push(paint('dim', ignored));
  const adopted = adoptedSecretsLine(plan.changes);
  if (adopted) out.push(paint('dim', adopted));
  // A failed drift check found no drift only because it could not look: it says it failed instead.
  if (options.mode === 'plan') out.push(paint('bold', named + summaryLine(plan.summary, plan.changes)));
  else if (!failed || driftedCount(plan) > 0) out.push(paint('bold', named + driftLine(driftedCount(plan), unverifiedCount(plan))));
  // It quotes the first error, which may quote a manifest or a service.
  if (failed) out.push(paint('red', named + lineText(failureLine(options.mode, plan.diagnostics, plan.changes))));
  return out.join('\n') + '\n';
}

/** One change as plan prints it (its headline, then a line per field), without colour: the dashboard's detail shows exactly this. */
export function renderChangeText(c: PlannedChange, mode: RenderMode): string[] {
  return changeBlock(c, mode, painter(false));
}

function changeBlock(c: PlannedChange, mode: RenderMode, paint: Paint): string[] {
  const glyph = ACTION_GLYPH[c.action].padStart(3);
  const lines = [`${paint(ACTION_STYLE[c.action], glyph)} ${paint('bold', lineText(c.address))} ${headline(c, mode)}`];
  const fields = shownFields(c, mode);
  if (c.action === 'create') lines.push(...fields.map((f) => createLine(f, paint)));
  else lines.push(...fields.map((f) => fieldLine(f, paint, mode)));
  if (mode === 'plan') for (const path of c.resent ?? []) lines.push(`      ${paint('yellow', '~')} ${lineText(path)}: ${paint('dim', RESENT_LABEL)}`);
  if (c.reason) lines.push(paint('dim', `      # ${lineText(c.reason)}`));
  return lines;
}

function fieldLine(f: FieldChange, paint: Paint, mode: RenderMode): string {
  const value = f.op === 'replace' ? `${fieldValue(f, 'before')} → ${fieldValue(f, 'after')}` : fieldValue(f, f.op === 'add' ? 'after' : 'before');
  const forces = f.forcesReplace ? paint('magenta', '  # forces replacement') : '';
  const removed = f.op === 'remove' ? ` ${removalNote(mode)}` : '';
  return `      ${paint(FIELD_OP_STYLE[f.op], FIELD_GLYPH[f.op])} ${lineText(f.path)}: ${value}  ${paint('dim', `(${causeLabel(f)})${removed}`)}${forces}`;
}

/** A field a create sets, as Terraform shows it: `+ path = value`. */
function createLine(f: FieldChange, paint: Paint): string {
  return `      ${paint('green', '+')} ${lineText(f.path)} = ${fieldValue(f, 'after')}`;
}

function checksSection(plan: Plan, paint: Paint): string[] {
  const checks = checkChanges(plan);
  if (checks.length === 0) return [];
  const style = { ok: 'green', FAIL: 'red', warn: 'yellow' } as const;
  const lines = checks.map((c) => {
    const label = checkLabel(c.check);
    return `  ${paint(style[label], label.padEnd(4))}  ${lineText(`${c.address}: ${c.check.message}`)}`;
  });
  return ['Checks:', ...lines, ''];
}
