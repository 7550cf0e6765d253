// What apply writes to state for a resource: hashed last-applied spec, outputs without secrets.
import { withoutPaths, type JsonObject } from '../../core/json.js';
import type { Manifest } from '../manifest.js';
import { declaredDependencies } from '../graph.js';
import { hashSensitive, maskSensitive } from '../secrets.js';
import { scrubOutputs, sensitivePatterns } from '../placeholder-secrets.js';
import type { KindDefinition, Observed } from '../../core/kind.js';
import type { ResourceRecord } from '../state/types.js';

export function appliedRecord(manifest: Manifest, kind: KindDefinition, desired: JsonObject, observed: Observed): ResourceRecord {
  const sensitive = sensitivePatterns(kind, manifest);
  return {
    kind: manifest.kind,
    name: manifest.name,
    id: observed.id,
    lastApplied: hashSensitive(desired, sensitive),
    outputs: recordedOutputs(kind, observed, desired, sensitive),
    protect: manifest.protect || undefined,
    dependsOn: recordedDependencies(manifest),
    updatedAt: new Date().toISOString(),
  };
}

/**
 * The outputs state keeps of a live resource (apply, import, apply --refresh-only): without what
 * only describes the moment (the kind's transient outputs), the kind's sensitive outputs masked,
 * and any value equal to a secret the spec resolved as its salted hash.
 */
export function recordedOutputs(kind: KindDefinition, observed: Observed, resolved: JsonObject, sensitive: readonly string[]): JsonObject {
  const lasting = kind.category === 'resource' ? withoutPaths(observed.outputs, kind.transientOutputs ?? []) : observed.outputs;
  return scrubOutputs(maskSensitive(lasting, kind.sensitive), resolved, sensitive);
}

/** Recorded before a create or update is sent, so a crash in between leaves a trace. */
export function pendingRecord(
  manifest: Manifest,
  kind: KindDefinition,
  desired: JsonObject,
  previous: ResourceRecord | undefined,
  action: 'create' | 'update' | 'replace',
): ResourceRecord {
  return {
    ...(previous ?? {}),
    kind: manifest.kind,
    name: manifest.name,
    lastApplied: previous?.lastApplied ?? hashSensitive(desired, sensitivePatterns(kind, manifest)),
    protect: manifest.protect || undefined,
    dependsOn: recordedDependencies(manifest),
    pending: { action, since: new Date().toISOString() },
    updatedAt: new Date().toISOString(),
  };
}

/** The dependencies state keeps (so prune can delete dependents first); left out when there are none. */
export function recordedDependencies(manifest: Manifest): string[] | undefined {
  const deps = declaredDependencies(manifest);
  return deps.length > 0 ? deps : undefined;
}

/** Whether the record's dependencies differ from the manifest's (a no-op then still updates state). */
export function dependenciesChanged(record: ResourceRecord, manifest: Manifest): boolean {
  const recorded = record.dependsOn ?? [];
  const declared = declaredDependencies(manifest);
  return recorded.length !== declared.length || recorded.some((d, i) => d !== declared[i]);
}
