// What a plan is: the changes decided for each address, before anything is done.
import type { Diagnostic } from '../../core/diagnostics.js';
import type { JsonValue } from '../../core/json.js';
import type { ReasonCode } from './reason-codes.js';

/** The plan actions; the text renderer prints them as + ~ -/+ - ! (and nothing for no-op). */
export type Action = 'create' | 'update' | 'replace' | 'delete' | 'run' | 'no-op';

export const ACTION_GLYPH: Readonly<Record<Action, string>> = {
  create: '+',
  update: '~',
  replace: '-/+',
  delete: '-',
  run: '!',
  'no-op': ' ',
};

/** Why a field differs: the manifest changed since the last apply, or the live resource drifted. */
export type ChangeCause = 'manifest' | 'drift';

/**
 * One changed field. `path` names elements of named arrays by their key
 * ('/properties/containers[name=web]/properties/image'); `pointer` is the RFC 6901 pointer
 * into the live document that the patch uses ('/properties/containers/0/properties/image').
 */
export interface FieldChange {
  readonly path: string;
  /** RFC 6901 pointer into the live resource (absent: `path` is one). */
  readonly pointer?: string;
  readonly op: 'add' | 'remove' | 'replace';
  /** Live (or last known) value; '(sensitive)' for secrets; absent for add. */
  readonly before?: JsonValue;
  /** Desired value; '(sensitive)' for secrets; absent for remove, and when unknown. */
  readonly after?: JsonValue;
  /** The desired value is known only after apply (a `${ref:}` to a resource not applied yet). */
  readonly unknown?: boolean;
  readonly cause: ChangeCause;
  readonly sensitive: boolean;
  /** This field cannot change in place: it forces the replace. */
  readonly forcesReplace: boolean;
}

/**
 * RFC 6902 operation (values of sensitive fields are the string '(sensitive)'). An unknown
 * value (known after apply) has `unknown: true` and no `value`; inside a value it is `{"unknown": true}`.
 */
export interface PatchOp {
  readonly op: 'add' | 'remove' | 'replace';
  readonly path: string;
  readonly value?: JsonValue;
  readonly unknown?: boolean;
}

export interface CheckOutcome {
  readonly passed: boolean;
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

export interface PlannedChange {
  readonly address: string;
  readonly kind: string;
  readonly action: Action;
  /** Changed fields (update, replace; drift); for a create every field it sets (op add). Empty for delete/run/no-op. */
  readonly fields: readonly FieldChange[];
  /** RFC 6902 patch from live to desired. */
  readonly patch: readonly PatchOp[];
  /** Some field drifted from the last apply. */
  readonly drift: boolean;
  /** Loses data: a replace that drops pushed rows, a refresh that overwrites a database. */
  readonly destructive: boolean;
  /** One line saying why (e.g. 'revision changed from 3 to 4', 'not in manifests (--prune)'). */
  readonly reason?: string;
  /** The reason as a stable code (reasons.ts), set whenever `reason` is: what machines read. */
  readonly reasonCode?: ReasonCode;
  /** For Check: the outcome. */
  readonly check?: CheckOutcome;
  /** Create and replace: the desired spec, secrets masked, unknowns as `{"unknown": true}`. */
  readonly after?: JsonValue;
  /** Update: write-only fields (secrets the service never returns) the write sends again, as named paths. */
  readonly resent?: readonly string[];
  /** The step this change waits for (a job of unknown outcome or whose run failed): apply skips it until then. */
  readonly heldBackBy?: string;
  /** The state record moves here from this former address (metadata.movedFrom); apply moves it first. */
  readonly movedFrom?: string;
  /** Found live under the manifest's identity, but state has no record of it (never applied by this state, or state lost). */
  readonly untracked?: boolean;
  /** How many differing fields it ignored (metadata.ignoreChanges, the config's ignore rules): their live value stays. */
  readonly ignored?: number;
  /** How many secrets adopted by moor discover (never seen) the manifest still leaves unset: live keeps them. */
  readonly adoptedSecrets?: number;
  /** No-op: the service still carries out an earlier write (a group provisioning), or ended it failed; apply follows it (fails it then). */
  readonly inProgress?: string;
}

export interface PlanSummary {
  readonly create: number;
  readonly update: number;
  readonly replace: number;
  readonly delete: number;
  readonly run: number;
  readonly noop: number;
}

export interface Plan {
  readonly format: 'moor-plan/1';
  /** State serial the plan was made from; a saved plan is stale once state moved on. */
  readonly serial: number;
  readonly changes: readonly PlannedChange[];
  readonly summary: PlanSummary;
  readonly diagnostics: readonly Diagnostic[];
}

export function summarize(changes: readonly PlannedChange[]): PlanSummary {
  const count = (a: Action) => changes.filter((c) => c.action === a).length;
  return { create: count('create'), update: count('update'), replace: count('replace'), delete: count('delete'), run: count('run'), noop: count('no-op') };
}

/** Something to apply: an action, or a state record to move (metadata.movedFrom). */
export function hasChanges(plan: Pick<Plan, 'changes'>): boolean {
  return plan.changes.some((c) => c.action !== 'no-op' || c.movedFrom !== undefined);
}
