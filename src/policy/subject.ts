// What the rules see of one resource: `object` (the manifest document) and, in plan and apply,
// `change` (action, destructive, drift, fields, before, after). Rules decide on the values as they
// are — a secret from `${file:}` or `${env:}` included, so that no value passes through a
// placeholder that would fail written plainly — while every message is made from the masked
// document, where each secret reads '(sensitive)'.
import type { JsonObject, JsonPath, JsonValue } from '../core/json.js';
import type { SourceLocation } from '../core/diagnostics.js';
import type { KindDefinition } from '../core/kind.js';
import type { Manifest } from '../engine/manifest.js';
import type { StepFacts } from '../engine/plan/steps.js';
import { API_VERSION } from '../engine/manifest.js';
import { maskSensitive } from '../engine/secrets.js';
import { sensitivePatterns } from '../engine/placeholder-secrets.js';
import { shownSpec } from '../engine/diff/after-values.js';
import { markUnknowns } from '../engine/unknown.js';
import { maskHashes } from '../engine/plan/plan-document.js';
import { isObject } from '../core/json.js';
import { scanReferences } from '../core/references.js';

/** A value written through `${env:}` or `${file:}` that validate, which resolves none, cannot know. */
export interface Unresolved {
  /** Its path in the document (['spec', ...]). */
  readonly path: JsonPath;
  /** The placeholder as written (`${file:iptype}`). */
  readonly placeholder: string;
}

export interface Subject {
  readonly address: string;
  readonly kind: string;
  readonly name: string;
  /** The manifest document (apiVersion, kind, metadata, spec) with its values as they are: rules decide on these. */
  readonly document: JsonObject;
  /** Null in validate and for a resource without a planned step; its values as they are. */
  readonly change: JsonObject | null;
  /** Patterns of spec paths holding secrets: each reads '(sensitive)' where messages are made. */
  readonly secrets?: readonly string[];
  /** The change with its secrets masked, for messages (absent: `change` holds none). */
  readonly maskedChange?: () => JsonObject | null;
  /** Values validate cannot know: a rule that reads one is not checked until plan (and says so). */
  readonly unresolved?: readonly Unresolved[];
  /** Where a path of the document is written; absent for what left the manifests (a pruned delete). */
  readonly locate?: (path: JsonPath) => SourceLocation;
}

/** A manifest as validate sees it: as written (placeholders unresolved), no change. */
export function manifestSubject(manifest: Manifest, kind: KindDefinition): Subject {
  const unresolved = unresolvedOf(manifest);
  return {
    ...identity(manifest),
    document: documentOf(manifest, manifest.spec),
    secrets: sensitivePatterns(kind, manifest),
    change: null,
    ...(unresolved.length > 0 ? { unresolved } : {}),
  };
}

/** A planned step: the manifest after placeholders (or the state record of a delete) and its change. */
export function stepSubject(step: StepFacts): Subject {
  const { change, manifest, kind, record } = step;
  const sensitive = sensitivePatterns(kind, manifest);
  const desired = step.desired && change.action !== 'delete' ? step.desired : undefined;
  const after = desired ? asObject(markUnknowns(desired)) : null;
  const live = step.observed?.spec ?? (change.action === 'create' ? undefined : record?.lastApplied);
  // A recorded secret is only a salted hash: it reads '(sensitive)' either way.
  const before = live ? asObject(maskHashes(live)) : null;
  const changeOf = (b: JsonObject | null, a: JsonObject | null): JsonObject => ({
    action: change.action,
    destructive: change.destructive,
    drift: change.drift,
    fields: change.fields.map((f) => f.path),
    before: b,
    after: a,
  });
  const maskedChange = () =>
    changeOf(live ? asObject(maskHashes(maskSensitive(live, sensitive))) : null, desired ? asObject(shownSpec(desired, sensitive)) : null);
  const facts = { change: changeOf(before, after), secrets: sensitive, maskedChange };
  if (manifest) return { ...identity(manifest), document: documentOf(manifest, after ?? asObject(markUnknowns(manifest.spec))), ...facts };
  const name = record?.name ?? change.address.slice(change.address.indexOf('/') + 1);
  const document = { apiVersion: API_VERSION, kind: change.kind, metadata: { name }, spec: before ?? {} };
  return { address: change.address, kind: change.kind, name, document, ...facts };
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

const unresolvedCache = new WeakMap<Manifest, readonly Unresolved[]>();

/** Every string of the spec that holds an `${env:}` or `${file:}` placeholder (found once per manifest). */
function unresolvedOf(manifest: Manifest): readonly Unresolved[] {
  let found = unresolvedCache.get(manifest);
  if (!found) {
    const out: Unresolved[] = [];
    const path: (string | number)[] = ['spec'];
    const visit = (value: JsonValue) => {
      if (typeof value === 'string') {
        if (!value.includes('${')) return;
        const ref = scanReferences(value).refs.find((r) => r.type === 'env' || r.type === 'file');
        if (ref) out.push({ path: [...path], placeholder: ref.raw });
      } else if (Array.isArray(value)) {
        value.forEach((v, i) => {
          path.push(i);
          visit(v);
          path.pop();
        });
      } else if (isObject(value)) {
        for (const [k, v] of Object.entries(value)) {
          path.push(k);
          visit(v);
          path.pop();
        }
      }
    };
    visit(manifest.spec);
    found = out;
    unresolvedCache.set(manifest, found);
  }
  return found;
}
