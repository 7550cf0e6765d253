// apply --plan: holds a fresh read of state, manifests and live to the saved plan before anything runs.
import type { PreparedPlan } from '../workflow.js';
import type { KindContext } from '../../core/kind.js';
import { checkSavedInputs, type SavedPlan } from './saved-plan.js';
import { holdToSavedPlan } from './saved-plan-check.js';
import { liveVersions } from './plan-document.js';
import { manifestsDigest } from './manifests-digest.js';

/**
 * The prepared plan, with every step that no longer matches the saved one refused (apply fails
 * it and skips what depends on it). Throws when state or the manifests moved on: nothing runs.
 */
export async function holdToSaved(ctx: KindContext, file: string, saved: SavedPlan, fresh: PreparedPlan): Promise<PreparedPlan> {
  checkSavedInputs(file, saved, { serial: fresh.state.serial, manifestsDigest: manifestsDigest(fresh.manifests) });
  const versions = await liveVersions(fresh, ctx);
  // Only what this plan would do is held to it (a refresh-only plan does nothing with the rest).
  const shown = new Set(fresh.plan.changes.map((c) => c.address));
  const held = holdToSavedPlan(
    fresh.steps.filter((s) => shown.has(s.change.address)),
    saved.changes,
    versions,
  );
  const byAddress = new Map(held.value.map((s) => [s.change.address, s]));
  const steps = fresh.steps.map((s) => byAddress.get(s.change.address) ?? s);
  const refused = new Map(steps.filter((s) => s.intent === 'refused').map((s) => [s.change.address, s.change]));
  const changes = fresh.plan.changes.map((c) => refused.get(c.address) ?? c);
  return { ...fresh, steps, plan: { ...fresh.plan, changes, diagnostics: [...fresh.plan.diagnostics, ...held.diagnostics] } };
}
