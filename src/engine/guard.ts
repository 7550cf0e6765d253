// Rules over the manifests and the planned changes that belong to no kind (policies): the edge
// hands a Guard in, and the engine calls it at two points — once the manifests are validated,
// and once the changes are planned. An error finding on a change refuses that change at apply.
import type { Diagnostic } from '../core/diagnostics.js';
import type { KindCatalog } from '../core/kind-catalog.js';
import type { Manifest } from './manifest.js';
import type { StepFacts } from './plan/steps.js';

/** What every evaluation of a run shares. */
export interface GuardContext {
  /** The stack the run is for; unset without one (policies' CEL `stack` variable is then '': policy/evaluate.ts stackVariable). */
  readonly stack?: string;
  /** The config's stack names ([] when it has none); unset when the run does not know them. */
  readonly stacks?: readonly string[];
}

export interface Guard {
  /**
   * Reads its documents (already checked against their schema), compiling what they state once
   * per run: their own problems as diagnostics, and the rules for the rest of the run.
   */
  prepare(documents: readonly Manifest[], kinds: KindCatalog, context?: GuardContext): PreparedGuard | Promise<PreparedGuard>;
}

export interface PreparedGuard {
  /** Problems in the guard's own documents (an invalid expression at its line). */
  readonly diagnostics: readonly Diagnostic[];
  /** Findings on the manifests as written, from the rules that need no planned change (validate). */
  checkManifests(manifests: readonly Manifest[], context: GuardContext): Promise<Diagnostic[]>;
  /** Findings on each planned change (plan and apply); each names the change's address. */
  checkChanges(steps: readonly StepFacts[], context: GuardContext): Promise<Diagnostic[]>;
}

/** Whether a diagnostic is a guard's finding: it refuses its own change, not the whole apply. */
export function isGuardFinding(d: Diagnostic): boolean {
  return d.policy !== undefined;
}
