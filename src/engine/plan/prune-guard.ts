// The guard rail of --prune: an empty or mistyped manifest folder must not read as "delete everything".
import type { Diagnostic } from '../../core/diagnostics.js';

export interface PruneScope {
  /** Manifests found (all kinds). */
  readonly manifests: number;
  /** Resources state has (jobs' records are never pruned and do not count). */
  readonly inState: number;
  /** Of those, how many the manifests still name. */
  readonly kept: number;
  /** Deletes the prune would make. */
  readonly deletes: number;
  readonly allowMassDelete?: boolean;
}

export const MASS_DELETE_FLAG = '--allow-mass-delete';

/**
 * Refuses a prune that deletes something when no manifests were found, or when the manifests
 * name fewer than half of what state has: most likely the wrong folder, not an intent.
 */
export function massDeleteRefusal(scope: PruneScope): Diagnostic | undefined {
  if (scope.deletes === 0 || scope.allowMassDelete) return undefined;
  const why = scope.manifests === 0 ? 'no manifests were found' : scope.kept * 2 < scope.inState ? `the manifests name only ${scope.kept} of them` : undefined;
  if (!why) return undefined;
  return {
    severity: 'error',
    code: 'prune.mass-delete',
    message: `--prune would delete ${scope.deletes} of the ${scope.inState} resources in state, and ${why}; check the paths given, or pass ${MASS_DELETE_FLAG} to delete them anyway`,
  };
}
