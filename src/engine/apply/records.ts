// What apply writes to state for a resource: hashed last-applied spec, outputs without secrets.
import type { JsonObject } from '../json.js';
import type { Manifest } from '../manifest.js';
import { hashSensitive, maskSensitive } from '../secrets.js';
import type { KindDefinition, Observed } from '../../resources/kind.js';
import type { ResourceRecord } from '../state/types.js';

export function appliedRecord(manifest: Manifest, kind: KindDefinition, desired: JsonObject, observed: Observed): ResourceRecord {
  return {
    kind: manifest.kind,
    name: manifest.name,
    id: observed.id,
    lastApplied: hashSensitive(desired, kind.sensitive),
    outputs: maskSensitive(observed.outputs, kind.sensitive),
    protect: manifest.protect || undefined,
    updatedAt: new Date().toISOString(),
  };
}

/** Recorded before a create or update is sent, so a crash in between leaves a trace. */
export function pendingRecord(manifest: Manifest, kind: KindDefinition, desired: JsonObject, previous: ResourceRecord | undefined, action: 'create' | 'update' | 'replace'): ResourceRecord {
  return {
    ...(previous ?? {}),
    kind: manifest.kind,
    name: manifest.name,
    lastApplied: previous?.lastApplied ?? hashSensitive(desired, kind.sensitive),
    protect: manifest.protect || undefined,
    pending: { action, since: new Date().toISOString() },
    updatedAt: new Date().toISOString(),
  };
}
