// A planned step: the public change plus what apply needs to carry it out.
import type { JsonObject, JsonPath } from '../../core/json.js';
import type { Manifest } from '../manifest.js';
import type { KindDefinition, Observed } from '../../core/kind.js';
import type { ResourceRecord } from '../state/types.js';
import type { PlannedChange } from './types.js';

export interface PlannedStep {
  readonly change: PlannedChange;
  readonly kind: KindDefinition;
  /** Absent for a delete of something that left the manifests. */
  readonly manifest?: Manifest;
  readonly record?: ResourceRecord;
  readonly observed?: Observed;
  /** Desired-spec paths that changed (what an in-place update sends). */
  readonly changedPaths: readonly JsonPath[];
  /** The resolved spec at plan time (secrets in clear: never written anywhere). */
  readonly desired?: JsonObject;
  /** Why this step cannot be carried out until the user acts (a job's unknown outcome): apply fails it, skipping its dependents. */
  readonly unresolved?: string;
  /**
   * Why what depends on this step must wait although the step itself has nothing to do (a job whose
   * run of this revision failed: a refresh must not run without the backup its export failed to make).
   */
  readonly blocksDependents?: string;
  /** Set when apply must not carry the step out (a saved plan no longer holds for it): why. */
  readonly refused?: string;
}
