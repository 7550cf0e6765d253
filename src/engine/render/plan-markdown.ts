// Plans and drift reports as markdown for a pull-request comment or $GITHUB_STEP_SUMMARY.
import { formatDiagnostic, hasErrors, sortDiagnostics } from '../../core/diagnostics.js';
import { lineText } from '../../core/foreign-text.js';
import { ACTION_GLYPH } from '../plan/types.js';
import type { FieldChange, Plan, PlannedChange } from '../plan/types.js';
import { causeLabel, fieldValue, removalNote, RESENT_LABEL } from './format-value.js';
import { codeBlock, codeSpan, escapeHtml, inlineText } from './markdown-escape.js';
import { checkChanges, checkLabel, diagnosticsBesideChecks, driftedCount, headline, unverifiedCount, shownChanges, shownFields } from './plan-view.js';
import type { RenderMode } from './plan-view.js';
import { driftLine, failureLine, ignoredLine, INCOMPLETE, NO_CHANGES, summaryLine } from './summary-line.js';

export interface MarkdownOptions {
  /** Heading text (default 'moor plan' or 'moor drift'). */
  readonly title?: string;
  readonly mode: RenderMode;
  /** The stack selected: named in the default heading (`moor plan · stack dev`). */
  readonly stack?: string;
}

/** Paths listed in a table cell before '… and N more'. */
const PATHS_IN_CELL = 3;

export function renderPlanMarkdown(plan: Plan, options: MarkdownOptions): string {
  const { mode } = options;
  const changes = shownChanges(plan, mode);
  const out: string[] = [`### ${inlineText(options.title ?? `moor ${mode}${options.stack === undefined ? '' : ` · stack ${options.stack}`}`)}`, ''];
  const failed = hasErrors(plan.diagnostics);
  // A pull-request comment shows a failed plan as failed, first.
  if (failed) out.push(`**❌ ${inlineText(failureLine(mode, plan.diagnostics, plan.changes))}**`, '');
  if (mode === 'plan' || !failed || driftedCount(plan) > 0)
    out.push(`**${mode === 'drift' ? driftLine(driftedCount(plan), unverifiedCount(plan)) : summaryLine(plan.summary, plan.changes)}**`, '');
  if (changes.length === 0 && mode === 'plan') out.push(hasErrors(plan.diagnostics) ? INCOMPLETE : NO_CHANGES, '');
  if (changes.length > 0) {
    out.push('| | Address | Changes | Notes |', '| :-: | --- | --- | --- |');
    for (const c of changes) out.push(tableRow(c, mode));
    out.push('');
    for (const c of changes) out.push(...details(c, mode));
  }
  const ignored = ignoredLine(plan.changes);
  if (ignored) out.push(inlineText(ignored), '');
  out.push(...checksSection(plan), ...diagnosticsSection(plan));
  return out.join('\n').trimEnd() + '\n';
}

function tableRow(c: PlannedChange, mode: RenderMode): string {
  const fields = shownFields(c, mode);
  // A create's fields are its after-values, listed in the details; the cell names changed paths only.
  const changed = c.action === 'create' ? [] : fields;
  const paths = changed.slice(0, PATHS_IN_CELL).map((f) => codeSpan(f.path));
  if (changed.length > PATHS_IN_CELL) paths.push(`… and ${changed.length - PATHS_IN_CELL} more`);
  const what = [inlineText(headline(c, mode)) + (paths.length > 0 ? ': ' + paths.join(', ') : '')];
  if (c.reason) what.push(`— ${inlineText(c.reason)}`);
  const notes = [
    ...(c.drift || fields.some((f) => f.cause === 'drift') ? ['drift'] : []),
    ...(c.destructive ? ['**destructive**'] : []),
    ...(fields.some((f) => f.forcesReplace) ? ['forces replacement'] : []),
  ];
  return `| ${codeSpan(ACTION_GLYPH[c.action])} | ${codeSpan(c.address)} | ${what.join(' ')} | ${notes.join(', ')} |`;
}

function details(c: PlannedChange, mode: RenderMode): string[] {
  const fields = shownFields(c, mode);
  const resent = mode === 'plan' ? (c.resent ?? []) : [];
  if (fields.length === 0 && resent.length === 0) return [];
  const lines =
    c.action === 'create'
      ? fields.map((f) => `+ ${f.path} = ${fieldValue(f, 'after')}`)
      : [...fields.flatMap((f) => diffLines(f, mode)), ...resent.map((p) => `# ${p} ${RESENT_LABEL}`)];
  return [
    `<details><summary>${escapeHtml(`${ACTION_GLYPH[c.action]} `)}<code>${escapeHtml(lineText(c.address))}</code>: ${fields.length} ${fields.length === 1 ? 'field' : 'fields'}</summary>`,
    '',
    codeBlock('diff', lines),
    '',
    '</details>',
    '',
  ];
}

/** A field as diff lines: a comment naming it, then - old and + new, so GitHub colours them. */
function diffLines(f: FieldChange, mode: RenderMode): string[] {
  const notes = [causeLabel(f), ...(f.op === 'remove' ? [removalNote(mode)] : []), ...(f.forcesReplace ? ['forces replacement'] : [])].join(', ');
  const lines = [`# ${f.path} (${notes})`];
  if (f.op !== 'add') lines.push(`- ${fieldValue(f, 'before')}`);
  if (f.op !== 'remove') lines.push(`+ ${fieldValue(f, 'after')}`);
  return lines;
}

function checksSection(plan: Plan): string[] {
  const checks = checkChanges(plan);
  if (checks.length === 0) return [];
  const icon = { ok: '✅ ok', FAIL: '❌ FAIL', warn: '⚠️ warn' } as const;
  return [
    '#### Checks',
    '',
    '| Result | Check | Message |',
    '| --- | --- | --- |',
    ...checks.map((c) => `| ${icon[checkLabel(c.check)]} | ${codeSpan(c.address)} | ${inlineText(c.check.message)} |`),
    '',
  ];
}

function diagnosticsSection(plan: Plan): string[] {
  // A failed warning check is in the Checks table already, with its warn mark (as in the text plan).
  const diagnostics = diagnosticsBesideChecks(plan);
  if (diagnostics.length === 0) return [];
  return ['#### Diagnostics', '', codeBlock('text', sortDiagnostics(diagnostics).map(formatDiagnostic)), ''];
}
