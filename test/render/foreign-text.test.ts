// Foreign text (a manifest's placeholder insides and map keys, a service's error codes and messages)
// in every output format: no line starts a workflow command moor did not mean, no raw control
// character reaches a terminal, no fence is broken, and JSON keeps the text exactly.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError, formatDiagnostic, type Diagnostic } from '../../src/core/diagnostics.js';
import type { EventSink, StepOutcome } from '../../src/core/events.js';
import { jsonText, lineText } from '../../src/core/foreign-text.js';
import { summarize, type Plan, type PlannedChange } from '../../src/engine/plan/types.js';
import { renderPlanJson, renderPlanMarkdown, renderPlanText } from '../../src/engine/render/index.js';
import { applySummaryMarkdown, failedStepDiagnostics, refreshSummaryMarkdown } from '../../src/cli/apply-github.js';
import { applySummary } from '../../src/cli/apply-summary.js';
import { writeAnnotations } from '../../src/cli/github-output.js';
import { diagnosticEvent, emitPlan, jsonlSink, jsonlWriter } from '../../src/cli/jsonl-output.js';
import { plainProgress, stepTitle } from '../../src/cli/progress.js';
import { reportFailure } from '../../src/cli/report-failure.js';
import { githubValidateReport } from '../../src/cli/validate-github.js';
import { renderTable } from '../../src/cli/get-output.js';
import { adaptiveCard } from '../../src/notify/adaptive-card.js';
import { reportMarkdown, shortMarkdown } from '../../src/notify/report-markdown.js';
import { runReport } from '../../src/notify/run-report.js';
import { expectNoForgery, HOSTILE } from './foreign-output-checks.js';
import type { IoHost } from '../../src/cli/io-host.js';
import { memoryIo } from '../support/memory-io.js';

const field = { op: 'replace', cause: 'manifest', sensitive: false, forcesReplace: false } as const;
const changes: PlannedChange[] = [
  {
    address: 'ContainerGroup/web',
    kind: 'ContainerGroup',
    action: 'update',
    drift: true,
    destructive: false,
    reason: HOSTILE,
    // A map key (a tag's name) in a field path, and the same text as a value.
    fields: [
      { ...field, path: `/tags/${HOSTILE}`, pointer: '/tags/x', before: 'a', after: HOSTILE },
      { ...field, path: `/tags/${HOSTILE}2`, cause: 'drift', before: HOSTILE, after: 'b' },
    ],
    patch: [{ op: 'replace', path: '/tags/x', value: HOSTILE }],
    resent: [`/tags/${HOSTILE}`],
  },
  {
    address: 'PushDataset/new',
    kind: 'PushDataset',
    action: 'create',
    drift: false,
    destructive: false,
    fields: [{ ...field, op: 'add', path: `/name${HOSTILE}`, after: HOSTILE }],
    patch: [],
  },
  {
    address: 'Check/quota',
    kind: 'Check',
    action: 'no-op',
    drift: false,
    destructive: false,
    fields: [],
    patch: [],
    check: { passed: false, severity: 'error', message: HOSTILE },
  },
];
const diagnostics: Diagnostic[] = [
  // A placeholder's inside, echoed by the message, and a file name.
  { severity: 'error', message: `invalid environment variable name in \${env:${HOSTILE}}`, location: { file: `m/${HOSTILE}.yaml`, line: 3, col: 5 } },
  // A service's error code and message.
  { severity: 'error', address: 'PushDataset/new', code: HOSTILE, message: `the service answered 400 ${HOSTILE} (code ${HOSTILE})` },
  { severity: 'warning', message: HOSTILE },
];
const plan: Plan = { format: 'moor-plan/1', serial: 1, changes, diagnostics, summary: summarize(changes) };
const outcomes: StepOutcome[] = [
  { address: 'ContainerGroup/web', action: 'update', status: 'failed', error: `HTTP 400 ${HOSTILE}: ${HOSTILE} (request id ${HOSTILE})` },
  { address: 'PushDataset/new', action: 'create', status: 'interrupted', error: HOSTILE },
  { address: 'PushDataset/other', action: 'create', status: 'skipped', rootCause: 'ContainerGroup/web' },
];

function collect(run: (write: (text: string) => void) => void): string {
  let out = '';
  run((text) => {
    out += text.endsWith('\n') ? text : text + '\n';
  });
  return out;
}

function events(sink: EventSink): void {
  sink({ type: 'step_started', address: 'ContainerGroup/web', action: 'update' });
  sink({ type: 'progress', address: 'ContainerGroup/web', message: HOSTILE });
  for (const o of outcomes) sink({ type: 'step_finished', outcome: o });
}

function stepSummary(write: (io: IoHost) => void): string {
  const file = join(mkdtempSync(join(tmpdir(), 'moor-summary-')), 'summary.md');
  const io = memoryIo({ env: { GITHUB_STEP_SUMMARY: file } });
  write(io);
  return io.out() + readFileSync(file, 'utf8');
}

const report = runReport('apply', { id: 'abc', name: HOSTILE }, plan, outcomes);
const OUTPUTS: [string, () => string][] = [
  ['text: plan', () => renderPlanText(plan, { color: false, mode: 'plan' })],
  ['text: plan in colour', () => renderPlanText(plan, { color: true, mode: 'plan' })],
  ['text: drift', () => renderPlanText(plan, { color: false, mode: 'drift' })],
  ['text: validate diagnostics', () => diagnostics.map(formatDiagnostic).join('\n')],
  ['text: apply progress lines', () => collect((w) => events(plainProgress(w).sink))],
  ['text: apply progress on a terminal (step titles)', () => stepTitle('ContainerGroup/web', HOSTILE, HOSTILE)],
  ['text: apply closing lines', () => applySummary(outcomes)],
  ['text: the error that ends a run', () => collect((w) => reportFailure(new UserError(`cannot read ${HOSTILE}`, diagnostics), w))],
  ['text: moor get tables', () => renderTable([{ header: 'name', value: (r: string) => r }], [HOSTILE])],
  ['json: plan', () => renderPlanJson(plan)],
  ['markdown: plan', () => renderPlanMarkdown(plan, { mode: 'plan' })],
  ['markdown: drift', () => renderPlanMarkdown(plan, { mode: 'drift', title: HOSTILE })],
  [
    'jsonl: plan and apply events',
    () =>
      collect((w) => {
        const emit = jsonlWriter(w);
        emitPlan(emit, plan);
        for (const d of diagnostics) emit(diagnosticEvent(d));
        events(jsonlSink(emit));
      }),
  ],
  [
    'github: annotations of diagnostics and failed steps',
    () => collect((w) => writeAnnotations([...diagnostics, ...failedStepDiagnostics(outcomes)], w, process.cwd())),
  ],
  ['github: validate annotations and step summary', () => stepSummary((io) => githubValidateReport(io, diagnostics, 2))],
  ['step summary: apply', () => applySummaryMarkdown(outcomes)],
  ['step summary: apply --refresh-only', () => refreshSummaryMarkdown(outcomes, applySummary(outcomes))],
  ['notifications: message markdown', () => reportMarkdown(report)],
  ['notifications: short message markdown', () => shortMarkdown(report, { name: 'report.md', url: 'https://example.net/r' })],
  ['notifications: adaptive card', () => jsonText(adaptiveCard(report), 2)],
];

describe('foreign text in every output format', () => {
  it.each(OUTPUTS)('%s: no forged workflow command, no raw control character, no broken fence', (_format, render) => {
    const out = render();
    expect(out).toContain('forged'); // the text is shown, not dropped
    expectNoForgery(out);
  });

  it('JSON and jsonl keep the text exactly (escaped by JSON, not changed)', () => {
    const doc = JSON.parse(renderPlanJson(plan));
    expect(doc.diagnostics.map((d: { message: string }) => d.message)).toContain(HOSTILE);
    const lines = collect((w) => {
      const emit = jsonlWriter(w);
      for (const o of outcomes) jsonlSink(emit)({ type: 'step_finished', outcome: o });
    })
      .trim()
      .split('\n');
    expect(JSON.parse(lines[0]).error).toBe(outcomes[0].error);
  });
});

describe('lineText', () => {
  it.each([
    ['a line break', 'a\nb', 'a\\nb'],
    ['a carriage return', 'a\rb', 'a\\rb'],
    ['an escape sequence (clear screen)', '\u001b[2J', '\\x1b[2J'],
    ['a single-byte CSI', '\u009b2J', '\\x9b2J'],
    ['an operating-system command (terminal title)', '\u001b]0;t\u0007', '\\x1b]0;t\\x07'],
    ['a Unicode line separator', 'a\u2028b', 'a\\u2028b'],
    ['a workflow command at the start', '::error::x', '\\x3a:error::x'],
    ['a workflow command after blanks', '  ::stop-commands::t', '  \\x3a:stop-commands::t'],
    ["the runner's older command form anywhere", 'a ##[error]b', 'a \\x23#[error]b'],
    ['a colon that starts no command', ':a', ':a'],
    ['plain text', 'ContainerGroup/web: created', 'ContainerGroup/web: created'],
  ])('shows %s as an escape', (_why, input, want) => {
    expect(lineText(input)).toBe(want);
    expect(lineText(lineText(input))).toBe(want);
  });
});
