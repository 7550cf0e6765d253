// The last line of a plan or drift report, which pipelines and people read first.
import type { Diagnostic } from '../../core/diagnostics.js';
import { lineText } from '../../core/foreign-text.js';
import type { PlannedChange, PlanSummary } from '../plan/types.js';
import { UNKNOWN_OUTCOME } from '../plan/unknown-outcome.js';
import { isGuardFinding } from '../guard.js';

export const NO_CHANGES = 'No changes. Live resources match the manifests.';
/** Said instead of NO_CHANGES when errors kept the plan from deciding everything. */
export const INCOMPLETE = 'No changes planned, but the plan is incomplete: see the errors.';
export const NO_DRIFT = 'No drift: live resources match the last apply.';

/** What a summary line of one stack's run starts with: `stack dev: ` (nothing without a stack). */
export function stackNamed(stack: string | undefined): string {
  return stack === undefined ? '' : `stack ${lineText(stack)}: `;
}

/**
 * `Plan: 2 to create, 1 to update, 0 to replace, 0 to delete, 1 to run.`; with `changes`, those the
 * plan refuses (a policy, a saved plan that no longer holds) are named among them — `…; 1 of them
 * refused.` — as apply then counts them refused, not done.
 */
export function summaryLine(s: PlanSummary, changes: readonly PlannedChange[] = []): string {
  const refused = changes.filter((c) => c.reasonCode === 'policy-refused' || c.reasonCode === 'saved-plan-refused').length;
  const counts = `Plan: ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.delete} to delete, ${s.run} to run`;
  return refused === 0 ? `${counts}.` : `${counts}; ${refused} of them refused.`;
}

/** Code of the warning drift gives a manifest state has no record of (never applied, or state lost). */
export const NOT_IN_STATE = 'drift.not-applied';

/**
 * `Drift: 2 resources drifted.`, or the no-drift line; never the no-drift line while some
 * manifests could not be compared (not in state): `No drift in 3 resources; 1 unverified (not in state).`
 */
export function driftLine(drifted: number, unverified = 0): string {
  const notVerified = `${unverified} unverified (not in state)`;
  if (drifted === 0)
    return unverified === 0 ? NO_DRIFT : `No drift found, but ${notVerified}: drift cannot tell whether ${unverified === 1 ? 'it' : 'they'} moved.`;
  const line = `Drift: ${drifted} ${drifted === 1 ? 'resource' : 'resources'} drifted.`;
  return unverified === 0 ? line : `${line} ${notVerified}.`;
}

/** How the transport names an endpoint nothing answers at. */
const UNREACHABLE = /cannot reach service '[^']+' at \S+ \([^)]+\)/;
/** Root causes named in a failure line before '… and N more'. */
const CAUSES_IN_LINE = 3;
/** A cause longer than this is cut (the full message is printed above it). */
const CAUSE_CHARS = 160;

/**
 * The last line of a plan or drift run that had errors, so it never ends on a count that looks
 * like success: `Plan failed: 2 errors — Check/name: check failed: …; ContainerGroup/web: 401 ….`
 * A plan whose only errors are jobs of unknown outcome did not fail: apply carries out the rest
 * and holds back what depends on them (`changes` names those), and the line says so.
 */
export function failureLine(mode: 'plan' | 'drift', diagnostics: readonly Diagnostic[], changes: readonly PlannedChange[] = []): string {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (appliesInPart(mode, diagnostics)) return heldBackLine(errors, changes);
  // Many requests to one unreachable service are one cause: the service and its address.
  const unreachable = new Set(errors.map((d) => UNREACHABLE.exec(d.message)?.[0]));
  const all = unreachable.has(undefined) ? errors.map(causeOf) : ([...unreachable] as string[]);
  const causes = all.slice(0, CAUSES_IN_LINE);
  if (all.length > CAUSES_IN_LINE) causes.push(`and ${all.length - CAUSES_IN_LINE} more`);
  const what = mode === 'drift' ? 'Drift check failed' : 'Plan failed';
  return `${what}: ${errors.length} ${errors.length === 1 ? 'error' : 'errors'} — ${causes.join('; ')}`;
}

/**
 * A plan whose only errors are jobs of unknown outcome and policies' refusals: apply carries out
 * all but those and what waits for them.
 */
export function appliesInPart(mode: 'plan' | 'drift', diagnostics: readonly Diagnostic[]): boolean {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  return mode === 'plan' && errors.length > 0 && errors.every((d) => d.code === UNKNOWN_OUTCOME || isGuardFinding(d));
}

function heldBackLine(errors: readonly Diagnostic[], changes: readonly PlannedChange[]): string {
  const roots = new Set(errors.map((d) => d.address));
  const held = changes.filter((c) => c.heldBackBy !== undefined && roots.has(c.heldBackBy)).map((c) => c.address);
  const unknown = errors.filter((d) => d.code === UNKNOWN_OUTCOME).length;
  const refused = new Set(errors.filter(isGuardFinding).map((d) => d.address)).size;
  const count = [
    ...(unknown > 0 ? [`${unknown} ${unknown === 1 ? 'job' : 'jobs'} of unknown outcome`] : []),
    ...(refused > 0 ? [`${refused} ${refused === 1 ? 'change' : 'changes'} refused by policy`] : []),
  ].join(' and ');
  const one = unknown + refused === 1;
  const heldBack =
    held.length === 0 ? `nothing depends on ${one ? 'it' : 'them'}` : `held back until ${one ? 'it is' : 'they are'} resolved: ${held.join(', ')}`;
  return `Plan applies in part: ${count} — ${errors.map(causeOf).join('; ')}; the rest of the plan applies; ${heldBack}`;
}

function causeOf(d: Diagnostic): string {
  const where = d.address ?? (d.location ? `${d.location.file}:${d.location.line}` : undefined);
  const first = d.message.split('\n')[0];
  // Some messages already start with their address (shown alone where a location is printed),
  // as a label (`ADDR: …`) or as the subject of a sentence (`ADDR is protected …`).
  const named = where !== undefined && (first.startsWith(`${where}: `) || first.startsWith(`${where} `));
  const text = (where && !named ? `${where}: ` : '') + first;
  return text.length > CAUSE_CHARS ? text.slice(0, CAUSE_CHARS - 1) + '…' : text;
}

/** How many secrets adopted by moor discover are still unset (live keeps them); empty when none. */
export function adoptedSecretsLine(changes: readonly PlannedChange[]): string {
  const n = changes.reduce((sum, c) => sum + (c.adoptedSecrets ?? 0), 0);
  if (n === 0) return '';
  const resources = changes.filter((c) => (c.adoptedSecrets ?? 0) > 0).length;
  return `Adopted secrets: ${n} hidden ${n === 1 ? 'value' : 'values'} in ${resources} ${resources === 1 ? 'resource' : 'resources'} moor never saw ${n === 1 ? 'is' : 'are'} not set: kept as live holds ${n === 1 ? 'it' : 'them'}, no change until ${n === 1 ? 'its' : 'their'} \${env:} ${n === 1 ? 'is' : 'are'} set.`;
}

/** How many differing fields the plan ignored (metadata.ignoreChanges, ignore rules); empty when none. */
export function ignoredLine(changes: readonly PlannedChange[]): string {
  const n = changes.reduce((sum, c) => sum + (c.ignored ?? 0), 0);
  if (n === 0) return '';
  const resources = changes.filter((c) => (c.ignored ?? 0) > 0).length;
  return `Ignored: ${n} ${n === 1 ? 'field differs' : 'fields differ'} live in ${resources} ${resources === 1 ? 'resource' : 'resources'} where ignoreChanges or an ignore rule lets live decide (kept as live holds ${n === 1 ? 'it' : 'them'}).`;
}
