// moor import: adopts an existing resource into state under a manifest address, after making
// sure the id names a resource that exists and is the one the manifest describes.
import { hasErrors, UserError } from '../../core/diagnostics.js';
import type { Manifest } from '../manifest.js';
import { loadRunManifests } from '../run-manifests.js';
import type { MoorConfig } from '../config.js';
import { resolveSpec } from '../resolve.js';
import { StateRecorder } from '../state/recorder.js';
import { recordAt, type ResourceRecord, type StateDocument } from '../state/types.js';
import { recordedDependencies, recordedOutputs } from '../apply/records.js';
import { kindContext } from '../workflow.js';
import type { Session } from '../session.js';
import type { Observed, ResourceHandler, ResourceKind } from '../../core/kind.js';
import type { KindCatalog } from '../../core/kind-catalog.js';
import { importedBaseline } from './baseline.js';
import { sensitivePatterns } from '../placeholder-secrets.js';
import { isSensitivePath } from '../secrets.js';

export interface ImportRequest {
  /** The manifest address, e.g. ContainerGroup/web. */
  readonly address: string;
  /** The service's identifier (ARM id, dataset id, auth context id). */
  readonly id: string;
  readonly paths: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/** Verifies and records; state is left unchanged when anything is refused. Returns the recorded id. */
export async function importResource(session: Session, request: ImportRequest): Promise<string> {
  const { address, id } = request;
  const { manifest, kind } = await importTarget(request, session.kinds, session.config);
  const lock = await session.backend.lock('moor import');
  try {
    const state = await session.backend.read();
    refuseRecorded(state, address, id);
    const resolved = resolveSpec(manifest, { env: request.env, files: session.config.files, outputs: (a) => recordAt(state, a)?.outputs }, kind.specSchema);
    if (hasErrors(resolved.diagnostics))
      throw new UserError(`${address}: the manifest's values cannot be resolved; nothing was imported`, resolved.diagnostics);
    const handler = kind.resource;
    const observed = await handler.read(kindContext(session), { name: manifest.name, spec: resolved.spec, recordedId: id });
    if (!observed) throw new UserError(`${id} was not found; nothing was imported`);
    const mismatches = mismatchesOf(handler, { name: manifest.name, spec: resolved.spec, id }, observed);
    if (mismatches.length > 0) throw new UserError(`${id} is not the resource of ${address}: ${mismatches.join('; ')}; nothing was imported`);
    refuseRecorded(state, address, observed.id);
    const recorder = new StateRecorder(session.backend, state);
    await recorder.put(address, importedRecord(manifest, kind, resolved.spec, observed));
    await recorder.flush();
    return observed.id;
  } finally {
    await session.backend.unlock(lock);
  }
}

/** A resource moor discover wrote a manifest for, with the live resource its listing read. */
export interface AdoptedResource {
  readonly manifest: Manifest;
  readonly kind: ResourceKind;
  readonly observed: Observed;
}

/**
 * moor discover --import: records resources already read by a listing under one lock, each with
 * import's verification (its manifest resolves, describes this resource, neither address nor id is
 * in state). A hidden secret whose placeholder is not set is recorded as adopted, never seen.
 * Returns what was refused, and why; the rest is recorded.
 */
export async function importAdopted(
  session: Session,
  adopted: readonly AdoptedResource[],
  env: NodeJS.ProcessEnv,
): Promise<{ address: string; message: string }[]> {
  const refused: { address: string; message: string }[] = [];
  if (adopted.length === 0) return refused;
  const lock = await session.backend.lock('moor discover --import');
  try {
    const state = await session.backend.read();
    const recorder = new StateRecorder(session.backend, state);
    const puts: Promise<void>[] = [];
    for (const { manifest, kind, observed } of adopted) {
      try {
        refuseRecorded(state, manifest.address, observed.id);
        const secrets = sensitivePatterns(kind, manifest);
        const resolved = resolveSpec(
          manifest,
          { env, files: session.config.files, outputs: (a) => recordAt(state, a)?.outputs, adopted: (path) => isSensitivePath(path, secrets) },
          kind.specSchema,
        );
        if (hasErrors(resolved.diagnostics))
          throw new UserError(`the manifest's values cannot be resolved: ${resolved.diagnostics.map((d) => d.message).join('; ')}`);
        const mismatches = mismatchesOf(kind.resource, { name: manifest.name, spec: resolved.spec, id: observed.id }, observed);
        if (mismatches.length > 0) throw new UserError(`${observed.id} is not the resource of ${manifest.address}: ${mismatches.join('; ')}`);
        // Not awaited one by one: the recorder writes what was put meanwhile together.
        puts.push(recorder.put(manifest.address, importedRecord(manifest, kind, resolved.spec, observed, true)));
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        refused.push({ address: manifest.address, message: e.message });
      }
    }
    await Promise.all(puts);
    await recorder.flush();
    return refused;
  } finally {
    await session.backend.unlock(lock);
  }
}

async function importTarget(request: ImportRequest, kinds: KindCatalog, config: MoorConfig): Promise<{ manifest: Manifest; kind: ResourceKind }> {
  const { manifests, diagnostics } = await loadRunManifests(config, request.paths, kinds, request.cwd);
  if (hasErrors(diagnostics)) throw new UserError('the manifests have errors; nothing was imported', diagnostics);
  const manifest = manifests.find((m) => m.address === request.address);
  if (!manifest) throw new UserError(`no manifest has the address ${request.address}; write its manifest first, then import it`);
  const kind = kinds.kindNamed(manifest.kind);
  // Validation refused manifests of unknown kinds, so the kind is known here.
  if (!kind) throw new Error(`${request.address}: validation let an unknown kind through`);
  if (kind.category !== 'resource') throw new UserError(`${request.address} is a ${kind.category}; only resources can be imported`);
  return { manifest, kind };
}

/** One resource, one address: neither the address nor the id may be in state already. */
function refuseRecorded(state: StateDocument, address: string, id: string): void {
  const own = recordAt(state, address);
  if (own) throw new UserError(`${address} is already in state (id ${own.id ?? 'unknown'}); 'moor state rm ${address}' first to import another`);
  const holder = Object.entries(state.resources).find(([, r]) => r.id?.toLowerCase() === id.toLowerCase());
  if (holder) throw new UserError(`${id} is already in state as ${holder[0]}; one resource cannot be managed under two addresses`);
}

function mismatchesOf(handler: ResourceHandler, target: { name: string; spec: Manifest['spec']; id: string }, observed: Observed): string[] {
  if (handler.identityMismatches) return handler.identityMismatches(target, observed);
  return observed.id === target.id ? [] : [`the service knows it as ${observed.id}`];
}

function importedRecord(manifest: Manifest, kind: ResourceKind, desired: Manifest['spec'], observed: Observed, adoptSecrets = false): ResourceRecord {
  return {
    kind: manifest.kind,
    name: manifest.name,
    id: observed.id,
    lastApplied: importedBaseline(desired, observed.spec, kind.diff, sensitivePatterns(kind, manifest), adoptSecrets),
    outputs: recordedOutputs(kind, observed, desired, sensitivePatterns(kind, manifest)),
    protect: manifest.protect || undefined,
    dependsOn: recordedDependencies(manifest),
    updatedAt: new Date().toISOString(),
  };
}
