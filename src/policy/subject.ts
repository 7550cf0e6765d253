// What the rules see of one resource: `object` (the manifest document, secrets as '(sensitive)')
// and, in plan and apply, `change` (action, destructive, drift, fields, before, after).
import type { JsonObject, JsonPath, JsonValue } from '../core/json.js';
import type { SourceLocation } from '../core/diagnostics.js';
import type { KindDefinition } from '../core/kind.js';
import type { Manifest } from '../engine/manifest.js';
import type { StepFacts } from '../engine/plan/steps.js';
import { API_VERSION } from '../engine/manifest.js';
import { maskSensitive } from '../engine/secrets.js';
import { sensitivePatterns } from '../engine/placeholder-secrets.js';
import { shownSpec } from '../engine/diff/after-values.js';
import { maskHashes } from '../engine/plan/plan-document.js';
import { isObject } from '../core/json.js';

export interface Subject {
  readonly address: string;
  readonly kind: string;
  readonly name: string;
  /** The manifest document (apiVersion, kind, metadata, spec) as JSON, secrets masked (or named by `secrets`). */
  readonly document: JsonObject;
  /** Patterns of spec paths still in clear in `document`: masked as the rules' value is made (one pass, for speed). */
  readonly secrets?: readonly string[];
  /** Null in validate and for a resource without a planned step. */
  readonly change: JsonObject | null;
  /** Where a path of the document is written; absent for what left the manifests (a pruned delete). */
  readonly locate?: (path: JsonPath) => SourceLocation;
}

/** A manifest as validate sees it: as written (placeholders unresolved), no change. */
export function manifestSubject(manifest: Manifest, kind: KindDefinition): Subject {
  return { ...identity(manifest), document: documentOf(manifest, manifest.spec), secrets: sensitivePatterns(kind, manifest), change: null };
}

/** A planned step: the manifest after placeholders (or the state record of a delete) and its change. */
export function stepSubject(step: StepFacts): Subject {
  const { change, manifest, kind, record } = step;
  const sensitive = sensitivePatterns(kind, manifest);
  const after = step.desired && change.action !== 'delete' ? asObject(shownSpec(step.desired, sensitive)) : null;
  const live = step.observed?.spec ?? (change.action === 'create' ? undefined : record?.lastApplied);
  const before = live ? asObject(maskHashes(maskSensitive(live, sensitive))) : null;
  const changeValue: JsonObject = {
    action: change.action,
    destructive: change.destructive,
    drift: change.drift,
    fields: change.fields.map((f) => f.path),
    before,
    after,
  };
  if (manifest) return { ...identity(manifest), document: documentOf(manifest, after ?? asObject(maskSensitive(manifest.spec, sensitive))), change: changeValue };
  const name = record?.name ?? change.address.slice(change.address.indexOf('/') + 1);
  const document = { apiVersion: API_VERSION, kind: change.kind, metadata: { name }, spec: before ?? {} };
  return { address: change.address, kind: change.kind, name, document, change: changeValue };
}

function identity(manifest: Manifest): Pick<Subject, 'address' | 'kind' | 'name' | 'locate'> {
  return { address: manifest.address, kind: manifest.kind, name: manifest.name, locate: (path) => manifest.source.locate(path) };
}

function documentOf(manifest: Manifest, spec: JsonObject): JsonObject {
  const metadata: JsonObject = { name: manifest.name };
  if (manifest.dependsOn.length > 0) metadata.dependsOn = [...manifest.dependsOn];
  if (manifest.protect) metadata.protect = true;
  return { apiVersion: manifest.apiVersion, kind: manifest.kind, metadata, spec };
}

function asObject(value: JsonValue): JsonObject {
  return isObject(value) ? value : {};
}
