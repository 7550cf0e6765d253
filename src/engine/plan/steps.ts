// A planned step: the public change plus what apply needs to carry it out. Each intent names what
// apply does and carries exactly the fields that needs; the applier switches on `intent`.
import type { JsonObject, JsonPath } from '../../core/json.js';
import type { Manifest } from '../manifest.js';
import type { JobKind, KindDefinition, Observed, ResourceKind } from '../../core/kind.js';
import type { ResourceRecord } from '../state/types.js';
import type { PlannedChange } from './types.js';
import type { IgnorePath } from '../diff/ignore-paths.js';

/**
 * What every step may tell, read alike by the plan's reviewers (policies, saved-plan checks, the
 * plan document); each intent narrows what it always has.
 */
export interface StepFacts {
  readonly change: PlannedChange;
  readonly kind: KindDefinition;
  /** Absent for a delete of something that left the manifests. */
  readonly manifest?: Manifest;
  readonly record?: ResourceRecord;
  readonly observed?: Observed;
  /** The resolved spec at plan time (secrets in clear: never written anywhere); ignored fields hold their live value. */
  readonly desired?: JsonObject;
  /** Fields whose live value the write keeps (metadata.ignoreChanges, the config's ignore rules): apply resolves again and keeps them too. */
  readonly ignore?: readonly IgnorePath[];
}

/** Nothing lives under the manifest's identity: apply creates it. */
export interface CreateStep extends StepFacts {
  readonly intent: 'create';
  readonly kind: ResourceKind;
  readonly manifest: Manifest;
  readonly desired: JsonObject;
}

/** The live resource differs in fields it can change in place: apply sends them. */
export interface UpdateStep extends StepFacts {
  readonly intent: 'update';
  readonly kind: ResourceKind;
  readonly manifest: Manifest;
  readonly desired: JsonObject;
  readonly observed: Observed;
  /** Desired-spec paths that changed (what the update sends). */
  readonly changedPaths: readonly JsonPath[];
}

/** A field cannot change in place (or --replace asked): apply deletes the live one, then creates. */
export interface ReplaceStep extends StepFacts {
  readonly intent: 'replace';
  readonly kind: ResourceKind;
  readonly manifest: Manifest;
  readonly desired: JsonObject;
  readonly observed: Observed;
}

/** A resource that left the manifests (--prune): apply deletes it and forgets its record. */
export interface DeleteStep extends StepFacts {
  readonly intent: 'delete';
  readonly kind: ResourceKind;
  readonly record: ResourceRecord;
  readonly manifest?: undefined;
  readonly desired?: undefined;
}

/** A job's revision to run (or to resume following). */
export interface RunStep extends StepFacts {
  readonly intent: 'run';
  readonly kind: JobKind;
  readonly manifest: Manifest;
  readonly desired: JsonObject;
}

/**
 * Nothing to send, but the service still carries out an earlier write (or ended it failed): apply
 * follows it through the kind to its end and records it before what depends on it starts.
 */
export interface SettleStep extends StepFacts {
  readonly intent: 'settle';
  readonly kind: ResourceKind;
  readonly manifest: Manifest;
  readonly desired: JsonObject;
  readonly observed: Observed;
}

/** Nothing to do live; apply still brings the record up to date (adoption, protect, dependencies). */
export interface NoopStep extends StepFacts {
  readonly intent: 'no-op';
  readonly manifest: Manifest;
  readonly desired: JsonObject;
}

/**
 * Nothing to do itself, but what depends on it must wait (a job whose run of this revision failed:
 * a refresh must not run without the backup its export failed to make).
 */
export interface BlockingStep extends StepFacts {
  readonly intent: 'blocks';
  readonly kind: JobKind;
  readonly manifest: Manifest;
  readonly desired: JsonObject;
  /** Why its dependents wait. */
  readonly why: string;
}

/** A job whose outcome is unknown until the user acts: apply fails it, skipping its dependents. */
export interface UnresolvedStep extends StepFacts {
  readonly intent: 'unresolved';
  readonly kind: JobKind;
  readonly manifest: Manifest;
  readonly desired: JsonObject;
  /** What apply reports for it (how to resolve it). */
  readonly why: string;
}

/**
 * A step apply must not carry out (a policy refuses it, or a saved plan no longer holds for it):
 * apply fails it with `why`. It keeps the facts of the step it refuses, for the plan's readers.
 */
export interface RefusedStep extends StepFacts {
  readonly intent: 'refused';
  readonly why: string;
}

export type PlannedStep = CreateStep | UpdateStep | ReplaceStep | DeleteStep | RunStep | SettleStep | NoopStep | BlockingStep | UnresolvedStep | RefusedStep;

/** The step refused: its facts kept, apply fails it with `why`. */
export function refusedStep(step: PlannedStep, change: PlannedChange, why: string): RefusedStep {
  const { kind, manifest, record, observed, desired } = step;
  return { intent: 'refused', change, kind, manifest, record, observed, desired, why };
}

/** Why apply must not carry the step out, or undefined when it may. */
export function refusalOf(step: PlannedStep): string | undefined {
  return step.intent === 'refused' ? step.why : undefined;
}

/** Why what depends on the step waits (its outcome unknown, or its run failed), or undefined. */
export function holdsDependents(step: PlannedStep): string | undefined {
  return step.intent === 'unresolved' || step.intent === 'blocks' ? step.why : undefined;
}

/** For the compiler: a switch over intents that misses one does not build. */
export function unknownIntent(step: never): never {
  throw new Error(`a planned step of unknown intent: ${JSON.stringify((step as PlannedStep).intent)}`);
}
