// The flags that shape a plan, declared once for plan and apply (each field of engine/plan/plan-shape.ts
// has its flag here; plan-inputs.ts reads them back). A help text differs only where the two commands'
// words do: plan says what it would plan, apply what it does.
import type { Command } from 'commander';
import { collect } from './session-options.js';

type Verb = 'plan' | 'apply';

interface PlanShapeOption {
  readonly flags: string;
  /** Given once per value (--target a --target b), collected into a list. */
  readonly repeatable?: boolean;
  readonly help: string | Readonly<Record<Verb, string>>;
}

const PLAN_SHAPE_OPTIONS: readonly PlanShapeOption[] = [
  {
    flags: '--target <address>',
    repeatable: true,
    help: {
      plan: 'plan only this address and what it depends on (repeatable)',
      apply: 'apply only this address and what it depends on (repeatable)',
    },
  },
  { flags: '--prune', help: { plan: 'also plan deleting what left the manifests', apply: 'delete what left the manifests (never a protected resource)' } },
  { flags: '--allow-mass-delete', help: 'let --prune delete when the manifests name fewer than half of what state has' },
  {
    flags: '--allow-untracked',
    help: "run jobs and create resources state has no record of although the manifests' other resources exist live (state looks lost; moor import is the other way)",
  },
  { flags: '--allow-destructive <address>', repeatable: true, help: 'let this protected job run although its run is destructive (repeatable)' },
  {
    flags: '--replace <address>',
    repeatable: true,
    help: {
      plan: 'plan a replace (-/+) of this resource even if it could be left alone or updated (repeatable)',
      apply: 'replace (-/+) this resource even if it could be left alone or updated (repeatable)',
    },
  },
  {
    flags: '--refresh-only',
    help: {
      plan: 'plan only accepting what drifted into state (apply --refresh-only); nothing live changes',
      apply: 'accept what drifted into state (last applied and outputs from live); change nothing live',
    },
  },
];

/** Adds the plan-shaping flags to `command` (moor plan or moor apply), in the words of `verb`. */
export function addPlanShapeOptions(command: Command, verb: Verb): Command {
  for (const option of PLAN_SHAPE_OPTIONS) {
    const help = typeof option.help === 'string' ? option.help : option.help[verb];
    if (option.repeatable) command.option(option.flags, help, collect);
    else command.option(option.flags, help);
  }
  return command;
}
