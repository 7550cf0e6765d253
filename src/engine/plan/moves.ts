// metadata.movedFrom (Terraform's `moved`): a rename in git plans as a move of the state record
// to the new address, not as a create of the new address and an orphan of the old one.
import type { Manifest } from '../manifest.js';
import { recordAt, type StateDocument } from '../state/types.js';
import { movedRecords } from '../state/move-record.js';

export interface PlannedMoves {
  /** State as it will be once the moves are made: what the plan compares with. */
  readonly state: StateDocument;
  /** New address -> the former address whose record moves there. */
  readonly moves: ReadonlyMap<string, string>;
}

/**
 * The moves the manifests ask for: a manifest's address has no record but a former address of it
 * has, and no manifest still uses that former address. Once made (after apply), nothing moves again.
 */
export function plannedMoves(manifests: readonly Manifest[], state: StateDocument): PlannedMoves {
  const present = new Set(manifests.map((m) => m.address));
  const moves = new Map<string, string>();
  const claimed = new Set<string>();
  let resources = state.resources;
  for (const m of manifests) {
    if (!m.movedFrom || Object.hasOwn(resources, m.address)) continue;
    const from = m.movedFrom.find((a) => recordAt(state, a)?.kind === m.kind && !present.has(a) && !claimed.has(a));
    if (!from) continue;
    claimed.add(from);
    moves.set(m.address, from);
    resources = movedRecords(resources, from, m.address);
  }
  return { state: moves.size === 0 ? state : { ...state, resources }, moves };
}
