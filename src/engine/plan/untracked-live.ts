// State that looks lost: a manifest's resource exists live but state has no record of it (state
// missing, empty, or not the one these manifests were applied with — the usual CI mistake).
// Then a job with no record may well have run already, and a create of a resource whose id the
// service assigns would make a duplicate: both are refused until imported or confirmed.
import type { Diagnostic } from '../../core/diagnostics.js';
import type { KindContext, Namesakes } from '../../core/kind.js';
import type { Manifest } from '../manifest.js';
import type { PlannedStep } from './steps.js';

/** The flag that confirms runs and creates state has no record of, while state looks lost. */
export const ALLOW_UNTRACKED_FLAG = '--allow-untracked';

/** Code of these diagnostics (drift reports the same resources its own way: unverified). */
export const UNTRACKED_LIVE = 'state.untracked-live';

/** The diagnostics for a plan whose state looks lost (none when it does not, or when confirmed). */
export function untrackedLiveDiagnostics(steps: readonly PlannedStep[], allowUntracked: boolean | undefined): Diagnostic[] {
  const found = steps.filter((s) => s.change.untracked);
  if (found.length === 0) return [];
  const named =
    found
      .slice(0, 5)
      .map((s) => s.change.address)
      .join(', ') + (found.length > 5 ? ` and ${found.length - 5} more` : '');
  const out: Diagnostic[] = [
    {
      severity: 'warning',
      code: UNTRACKED_LIVE,
      message:
        `state has no record of ${named}, which ${found.length === 1 ? 'exists' : 'exist'} live: state is missing, empty or not the one these manifests were applied with (check --state); ` +
        `plan compares ${found.length === 1 ? 'it' : 'them'} with the manifests and apply records ${found.length === 1 ? 'it' : 'them'}; 'moor import ADDR ID' adopts one without applying`,
    },
  ];
  if (allowUntracked) return out;
  for (const s of steps) {
    const why = duplicateRisk(s);
    if (!why || !s.manifest) continue;
    const run = s.change.action === 'run';
    // Only a resource can be imported; a job's runs live in the state it was applied with.
    const importIt = run ? '' : `import the one that exists ('moor import ${s.change.address} ID'), `;
    out.push({
      severity: 'error',
      address: s.change.address,
      code: UNTRACKED_LIVE,
      location: s.manifest.source.locate(['metadata', 'name']),
      message:
        `${s.change.address}: state has no record of it while other resources of these manifests exist live, so ${why}; ` +
        `${importIt}point --state at the state it was applied with, or give ${ALLOW_UNTRACKED_FLAG} if it is meant to ${run ? 'run' : 'be created'}`,
    });
  }
  return out;
}

/** Why carrying out this step without a state record may repeat what was done already; undefined when it may not. */
function duplicateRisk(s: PlannedStep): string | undefined {
  if (s.record) return undefined;
  if (s.change.action === 'run' && s.kind.category === 'job')
    return `this run may have happened already${s.kind.job.destructive ? ' (and it overwrites data)' : ''}`;
  // A kind addressed by an id moor derives finds what exists (and plans no create); one whose id the service assigns cannot.
  if (s.change.action === 'create' && s.kind.category === 'resource' && !s.kind.resource.idempotentWrites)
    return 'creating it may make a second one beside the one made before';
  return undefined;
}

/**
 * Creates state has no record of, of kinds whose names are not unique (a dataset in its workspace),
 * while nothing else says state looks lost (a lone dataset): each is looked up by name, and one the
 * service already has would be made a second time. Refused (a warning with --allow-untracked),
 * naming the ids to import.
 */
export async function namesakeDiagnostics(steps: readonly PlannedStep[], ctx: KindContext, allowUntracked: boolean | undefined): Promise<Diagnostic[]> {
  // When other resources were found live without a record, the diagnostics above already speak of these creates.
  if (steps.some((s) => s.change.untracked)) return [];
  const found = await Promise.all(
    steps.map(async (s) => {
      if (s.record || s.change.action !== 'create' || s.kind.category !== 'resource' || !s.manifest || !s.desired) return [];
      const namesakes = await s.kind.resource.namesakes?.(ctx, s.manifest.name, s.desired);
      return namesakes ? [namesakeDiagnostic(s, s.manifest, namesakes, allowUntracked)] : [];
    }),
  );
  return found.flat();
}

function namesakeDiagnostic(step: PlannedStep, manifest: Manifest, found: Namesakes, allowUntracked: boolean | undefined): Diagnostic {
  const address = step.change.address;
  const ids = found.ids.slice(0, 5).join(', ') + (found.ids.length > 5 ? ` and ${found.ids.length - 5} more` : '');
  const base = { address, code: UNTRACKED_LIVE, location: manifest.source.locate(['metadata', 'name']) };
  if (allowUntracked) {
    return {
      ...base,
      severity: 'warning',
      message: `${address}: state has no record of it and ${found.what} (${ids}): ${ALLOW_UNTRACKED_FLAG} creates another one beside ${found.ids.length === 1 ? 'it' : 'them'}`,
    };
  }
  return {
    ...base,
    severity: 'error',
    message:
      `${address}: state has no record of it, but ${found.what} (${ids}), so creating it would make a second one: state is missing, empty or not the one it was applied with (check --state); ` +
      `adopt the one that exists with 'moor import ${address} ${found.ids[0]}', or give ${ALLOW_UNTRACKED_FLAG} if another one is meant`,
  };
}
