// The options that shape a plan, declared once: the CLI's flags (cli/plan-inputs.ts), the saved plan's
// `inputs` (plan-document.ts), a library caller's options (src/index.ts) and what the planner and
// the workflow take are this one type, or picked from it.

export interface PlanShape {
  /** Only these addresses and what they depend on (--target). */
  readonly targets: readonly string[];
  /** Plan deletes of what left the manifests (--prune). */
  readonly prune: boolean;
  /** Force a -/+ of these addresses (--replace). */
  readonly replace: readonly string[];
  /** Plan only what drifted, for accepting it into state (--refresh-only). */
  readonly refreshOnly: boolean;
  /** Let --prune delete when the manifests name fewer than half of what state has (recorded only when given). */
  readonly allowMassDelete?: boolean;
  /** Run jobs and create resources state has no record of although the manifests' other resources exist live (recorded only when given). */
  readonly allowUntracked?: boolean;
  /** Protected jobs whose destructive run may go ahead (--allow-destructive ADDR). */
  readonly allowDestructive?: readonly string[];
}
