// --all-stacks of plan and drift: every stack of the config planned in turn and reported together
// (text: a heading per stack; JSON: one document with a `stacks` array; markdown: one comment with
// a section per stack; github: annotations naming the stack), exit code the worst of them.
import { UserError, type Diagnostic } from '../core/diagnostics.js';
import type { JsonObject } from '../core/json.js';
import type { Plan } from '../engine/plan/types.js';
import { renderPlanJson, renderPlanMarkdown, renderPlanText } from '../engine/render/index.js';
import { appendStepSummary, writeAnnotations } from './github-output.js';
import type { StackResult } from '../engine/operations/run-events.js';
import { useColor } from './session-options.js';
import { unplanned } from './unplanned.js';
import { jsonText } from '../core/foreign-text.js';
import { stdoutLine, type IoHost } from './io-host.js';

/** One stack's outcome: its plan (or an empty one carrying why it could not plan), the JSON document, the exit code. */
export interface StackRun extends StackResult {
  readonly code: number;
}

/** Runs `one` for every stack in turn; a stack that fails (bad manifests, a lock held) is reported and the others still run. */
export async function eachStack(stacks: readonly string[], one: (stack: string) => Promise<StackRun>): Promise<StackRun[]> {
  const runs: StackRun[] = [];
  for (const stack of stacks) {
    try {
      runs.push(await one(stack));
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      runs.push({ stack, plan: unplanned(err), code: 1 });
    }
  }
  return runs;
}

/** The config's stacks, or a UserError when it has none. */
export function stacksOf(config: { readonly file?: string; readonly stacks?: readonly string[] }, flag = '--all-stacks'): readonly string[] {
  if (!config.stacks) throw new UserError(`${flag}: ${config.file ?? 'moor.config.yaml'} defines no stacks`);
  return config.stacks;
}

/** 1 when any stack failed, else 2 when any has changes (or drift) to report, else 0. */
export function worstExitCode(codes: readonly number[]): number {
  return codes.includes(1) ? 1 : Math.max(0, ...codes);
}

/** A diagnostic whose message names its stack (annotations and the stderr lines of several stacks). */
export function namingStack(d: Diagnostic, stack: string): Diagnostic {
  return { ...d, message: `${d.message} (stack ${stack})` };
}

/** JSON: one document with a `stacks` array, each stack's plan document (or its errors) named. */
export function stacksJson(runs: readonly StackResult[]): string {
  const stacks = runs.map((r) => {
    const { format: _format, ...rest } = r.document ?? planOnly(r.plan);
    return { stack: r.stack, ...rest };
  });
  return jsonText({ format: 'moor-plan/1', stacks }, 2) + '\n';
}

/** Text: a heading and the plan per stack; the last lines say what happened to each stack, each naming it. */
export function stacksText(io: IoHost, runs: readonly StackResult[], mode: 'plan' | 'drift'): string {
  const parts = runs.map((r) => `\n=== stack ${r.stack} ===\n\n` + renderPlanText(r.plan, { color: useColor(io.stdout, io.env), mode }).trimEnd() + '\n');
  return parts.join('') + '\n' + runs.map((r) => `stack ${r.stack}: ${lastLine(r.plan, mode)}`).join('\n') + '\n';
}

/** github: each stack's diagnostics as annotations naming the stack, and one job summary. */
export function annotateStacks(io: IoHost, runs: readonly StackResult[], mode: 'plan' | 'drift'): void {
  writeAnnotations(
    runs.flatMap((r) => r.plan.diagnostics.map((d) => namingStack(d, r.stack))),
    stdoutLine(io),
    io.cwd,
  );
  appendStepSummary(stacksMarkdown(runs, mode), io.env);
}

/** One comment: a section per stack, under one heading. */
export function stacksMarkdown(runs: readonly StackResult[], mode: 'plan' | 'drift'): string {
  const sections = runs.map((r) => renderPlanMarkdown(r.plan, { mode, title: `moor ${mode} · stack ${r.stack}` }).trimEnd());
  return [`## moor ${mode}: ${runs.length} stack${runs.length === 1 ? '' : 's'}`, '', ...sections.flatMap((s) => [s, ''])].join('\n').trimEnd() + '\n';
}

function lastLine(plan: Plan, mode: 'plan' | 'drift'): string {
  const lines = renderPlanText(plan, { color: false, mode }).trimEnd().split('\n');
  return lines[lines.length - 1];
}

/** The JSON of a stack that could not plan: no changes, its errors. */
function planOnly(plan: Plan): JsonObject {
  return JSON.parse(renderPlanJson(plan)) as JsonObject;
}
