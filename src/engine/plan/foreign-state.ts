// State of another environment: its records put the manifests' resources elsewhere (another
// subscription, resource group or workspace) than the manifests now do — dev's variables run with
// prod's state. Planned as it stands, that is a replace: delete prod's resource, create dev's. A
// replace that moves a resource out of where state records it is refused unless --replace names it.
import type { Diagnostic } from '../../core/diagnostics.js';
import { isObject } from '../../core/json.js';
import type { PlannedStep, ReplaceStep } from './steps.js';

/** Code of these refusals (plan and apply; drift compares live with this very state, so it has none). */
export const FOREIGN_STATE = 'state.foreign';

interface Moved {
  readonly step: ReplaceStep;
  /** The addressing fields that differ: field, where state records it, where the manifest puts it. */
  readonly fields: readonly { field: string; recorded: string; desired: string }[];
}

/** One error per replace that moves a resource out of where state records it; `replace`: the addresses --replace names. */
export function foreignStateDiagnostics(steps: readonly PlannedStep[], replace: readonly string[] = []): Diagnostic[] {
  const named = new Set(replace);
  const compared = steps.filter((s) => s.record !== undefined && s.manifest !== undefined && s.kind.category === 'resource');
  const moved = compared.map(movedOf).filter((m): m is Moved => m !== undefined);
  if (moved.length === 0) return [];
  // Every resource state shares with the manifests is elsewhere: the state is another environment's.
  const whole = moved.length === compared.length && compared.length > 1;
  return moved
    .filter((m) => !named.has(m.step.change.address))
    .map(({ step, fields }) => {
      const where = (side: 'recorded' | 'desired') => fields.map((f) => `${f.field} ${f[side]}`).join(', ');
      const looks = whole
        ? `every resource state shares with these manifests is elsewhere (${moved.length} of ${compared.length}): the state looks like another environment's`
        : "the state may be another environment's";
      return {
        severity: 'error',
        code: FOREIGN_STATE,
        address: step.change.address,
        location: step.manifest.source.locate(['spec', fields[0].field]),
        message:
          `${step.change.address}: state records it at ${where('recorded')}, the manifests put it at ${where('desired')}, so the replace would delete the resource state records and create another there; ` +
          `${looks}: point --state (MOOR_STATE, or the stack) at the state these manifests were applied with, or give --replace ${step.change.address} to move it on purpose`,
      };
    });
}

/** The addressing fields (the name aside: a rename is planned as one) a replace would move the resource across. */
function movedOf(step: PlannedStep): Moved | undefined {
  if (step.intent !== 'replace') return undefined;
  const last = step.record?.lastApplied;
  if (!isObject(last)) return undefined;
  const nameField = step.kind.resource.nameField;
  const fields = (step.kind.addressing ?? [])
    .filter((field) => field !== nameField)
    .flatMap((field) => {
      const recorded = last[field];
      const desired = step.desired[field];
      return typeof recorded === 'string' && typeof desired === 'string' && !sameId(recorded, desired) ? [{ field, recorded, desired }] : [];
    });
  return fields.length > 0 ? { step, fields } : undefined;
}

/** Ids compare as the services compare them: without regard to case. */
function sameId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
