// The three answers to a drifted resource, as people copy them: accept the hand change into the
// manifests, revert it with an apply, or ignore the fields another system owns.
import type { PlannedChange } from '../plan/types.js';

export interface DriftAnswers {
  /** `moor drift --stack S --accept ADDR`: writes the live values into the files that set them. */
  readonly accept: string;
  /** `moor apply --stack S --target ADDR`: puts the manifest's values back. */
  readonly revert: string;
  /** The metadata line that ignores the drifted fields from now on. */
  readonly ignore: string;
}

/** The answers for a drifted change of `stack` (undefined without stacks); undefined when nothing drifted. */
export function driftAnswers(change: Pick<PlannedChange, 'address' | 'drift' | 'fields'>, stack: string | undefined): DriftAnswers | undefined {
  if (!change.drift) return undefined;
  const on = stack === undefined ? '' : ` --stack ${stack}`;
  const paths = [...new Set(change.fields.filter((f) => f.cause === 'drift').map((f) => f.path))];
  return {
    accept: `moor drift${on} --accept ${change.address}`,
    revert: `moor apply${on} --target ${change.address}`,
    ignore: `ignoreChanges: [${paths.map((p) => JSON.stringify(p)).join(', ')}]`,
  };
}
