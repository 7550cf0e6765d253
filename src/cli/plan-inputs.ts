// The options that shape a plan (plan and apply share them), checked for combinations that make no sense.
import { UserError } from '../core/diagnostics.js';
import type { PlanInputs } from '../engine/plan/plan-document.js';
import { stackGivenText, type StackChoice } from '../engine/config-stacks.js';

export interface PlanShapeFlags {
  readonly target?: string[];
  readonly prune?: boolean;
  readonly replace?: string[];
  readonly refreshOnly?: boolean;
  readonly allowMassDelete?: boolean;
  readonly allowUntracked?: boolean;
  readonly allowDestructive?: string[];
}

/** `stack`: the stack selected (--stack), recorded in the plan. */
export function planInputs(paths: readonly string[], flags: PlanShapeFlags, stack?: string): PlanInputs {
  const inputs: PlanInputs = {
    paths: [...paths],
    targets: flags.target ?? [],
    prune: Boolean(flags.prune),
    replace: flags.replace ?? [],
    refreshOnly: Boolean(flags.refreshOnly),
    ...(flags.allowMassDelete ? { allowMassDelete: true } : {}),
    ...(stack !== undefined ? { stack } : {}),
    ...(flags.allowUntracked ? { allowUntracked: true } : {}),
    ...(flags.allowDestructive?.length ? { allowDestructive: [...flags.allowDestructive] } : {}),
  };
  if (inputs.refreshOnly && (inputs.prune || inputs.replace.length > 0)) {
    throw new UserError('--refresh-only changes nothing live: it cannot be combined with --prune or --replace');
  }
  return inputs;
}

/**
 * What apply may do beyond what the plan it applies allows: the confirmations given to apply
 * itself, added to those a saved plan recorded (a plan reviewed with them needs them no more).
 */
export function withApplyConfirmations(inputs: PlanInputs, flags: PlanShapeFlags): PlanInputs {
  const destructive = [...new Set([...(inputs.allowDestructive ?? []), ...(flags.allowDestructive ?? [])])];
  return {
    ...inputs,
    ...(flags.allowMassDelete || inputs.allowMassDelete ? { allowMassDelete: true } : {}),
    ...(flags.allowUntracked || inputs.allowUntracked ? { allowUntracked: true } : {}),
    ...(destructive.length > 0 ? { allowDestructive: destructive } : {}),
  };
}

/** apply --plan takes every input from the saved plan: repeating one would be ignored, so it is refused. */
export function refuseWithSavedPlan(paths: readonly string[], flags: PlanShapeFlags): void {
  const given = [
    paths.length > 0 ? 'PATH' : '',
    flags.target?.length ? '--target' : '',
    flags.prune ? '--prune' : '',
    flags.replace?.length ? '--replace' : '',
    flags.refreshOnly ? '--refresh-only' : '',
  ].filter(Boolean);
  if (given.length > 0) throw new UserError(`apply --plan takes its paths and options from the saved plan; do not give ${given.join(', ')}`);
}

/**
 * The stack apply --plan works on: the saved plan's. A --stack (MOOR_STACK) naming another one, or
 * any stack for a plan made without one, is refused: the plan's state and paths are that stack's.
 */
export function savedPlanStack(file: string, saved: string | undefined, choice: StackChoice | undefined): string | undefined {
  const given = choice?.name;
  if (choice !== undefined && saved !== given) {
    const givenAs = stackGivenText(choice);
    throw new UserError(
      saved === undefined
        ? `saved plan ${file} was made without a stack; apply it without ${givenAs.split(/[ =]/)[0]}`
        : `saved plan ${file} is a plan of stack ${saved}, not ${given}: apply it with --stack ${saved} (or without --stack)`,
    );
  }
  return saved;
}
