// The options that shape a plan (plan and apply share them), checked for combinations that make no sense.
import { UserError } from '../core/diagnostics.js';
import type { PlanInputs } from '../engine/plan/plan-document.js';

export interface PlanShapeFlags {
  readonly target?: string[];
  readonly prune?: boolean;
  readonly replace?: string[];
  readonly refreshOnly?: boolean;
  readonly allowMassDelete?: boolean;
}

export function planInputs(paths: readonly string[], flags: PlanShapeFlags): PlanInputs {
  const inputs: PlanInputs = {
    paths: [...paths],
    targets: flags.target ?? [],
    prune: Boolean(flags.prune),
    replace: flags.replace ?? [],
    refreshOnly: Boolean(flags.refreshOnly),
    ...(flags.allowMassDelete ? { allowMassDelete: true } : {}),
  };
  if (inputs.refreshOnly && (inputs.prune || inputs.replace.length > 0)) {
    throw new UserError('--refresh-only changes nothing live: it cannot be combined with --prune or --replace');
  }
  return inputs;
}

/** apply --plan takes every input from the saved plan: repeating one would be ignored, so it is refused. */
export function refuseWithSavedPlan(paths: readonly string[], flags: PlanShapeFlags): void {
  const given = [
    paths.length > 0 ? 'PATH' : '', flags.target?.length ? '--target' : '', flags.prune ? '--prune' : '',
    flags.replace?.length ? '--replace' : '', flags.refreshOnly ? '--refresh-only' : '',
  ].filter(Boolean);
  if (given.length > 0) throw new UserError(`apply --plan takes its paths and options from the saved plan; do not give ${given.join(', ')}`);
}
