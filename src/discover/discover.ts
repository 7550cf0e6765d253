// moor discover: every live resource of the managed kinds in a scope, listed through the kinds'
// own adoption (the run's providers: paged, paced and throttled as plan's reads), written as the
// manifests a person would write, one file per resource group / workspace, and with --import
// recorded in state under import's verification. Files that exist are never overwritten.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hasErrors, UserError, type Diagnostic } from '../core/diagnostics.js';
import type { Adoption, Discovered, DiscoveryScope, ResourceKind } from '../core/kind.js';
import { configFiles } from '../engine/config.js';
import { loadAndValidate } from '../engine/validate/index.js';
import { addressOf, type Manifest } from '../engine/manifest.js';
import type { Session } from '../engine/session.js';
import type { ResourceRecord, StateDocument } from '../engine/state/types.js';
import { kindContext } from '../engine/workflow.js';
import { importAdopted } from '../engine/import/import-resource.js';
import { namedFieldPath, shapeSpec } from './shape.js';
import { addressNames, fileNameFor, secretName } from './names.js';
import { existingSecretNames, writeEnvExample, writeManifestFile, type ManifestDocument } from './files.js';

export interface DiscoverRequest {
  readonly scope: DiscoveryScope;
  /** The folder the manifests go in (absolute). */
  readonly out: string;
  readonly import: boolean;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Hears each listing as it ends: how many it found, where. */
  readonly listed?: (kind: string, count: number, where: string) => void;
}

export interface DiscoveredResource {
  readonly address: string;
  readonly id: string;
  /** The file it is written in (relative to the working folder), or the existing one that describes it. */
  readonly file: string;
  /** written: a new manifest; existing: a manifest in DIR already describes it (left alone). */
  readonly status: 'written' | 'existing';
  /** Set when --import recorded it in state. */
  readonly imported?: boolean;
}

export interface DiscoverReport {
  readonly resources: DiscoveredResource[];
  readonly files: string[];
  /** Names of the environment variables of hidden secrets (values never known). */
  readonly secrets: string[];
  readonly unwritten: { address: string; path: string; reason: string }[];
  /** Live resources of one name given two addresses, and what told them apart. */
  readonly clashes: { name: string; addresses: { address: string; by: string }[] }[];
  /** What the listings hold that moor does not manage, and why. */
  readonly passedOver: { what: string; reason: string }[];
  /** With --import: what import refused, and why. */
  readonly notImported: { address: string; message: string }[];
  /** What validating the written folder found (none is expected). */
  readonly diagnostics: Diagnostic[];
}

/** A kind that can list its live resources and write a manifest for each. */
type AdoptableKind = ResourceKind & { readonly adoption: Adoption };

interface Found {
  readonly kind: AdoptableKind;
  readonly item: Discovered;
}

export async function discover(session: Session, request: DiscoverRequest): Promise<DiscoverReport> {
  const kinds = session.kinds.kinds.filter((k): k is AdoptableKind => k.category === 'resource' && k.adoption !== undefined);
  const ctx = kindContext(session);
  const passedOver: DiscoverReport['passedOver'] = [];
  const listed = await Promise.all(
    kinds.map(async (kind) => {
      const items = await kind.adoption.list(
        ctx,
        request.scope,
        (count, where) => request.listed?.(kind.kind, count, where),
        (what, reason) => passedOver.push({ what, reason }),
      );
      return items.map((item): Found => ({ kind, item }));
    }),
  );
  const found = listed.flat().sort((a, b) => compare(a, b));
  const before = await existingManifests(session, request);
  const state = await session.backend.read();
  const known = matchExisting(found, before, state);

  const usedSecrets = existingSecretNames(request.out);
  const secrets: string[] = [];
  const envLines: string[] = [];
  const unwritten: DiscoverReport['unwritten'] = [];
  const clashes = new Map<string, { address: string; by: string }[]>();
  const byFile = new Map<string, { home: string; documents: ManifestDocument[] }>();
  const resources: DiscoveredResource[] = [];
  const fresh: (Found & { address: string })[] = [];

  for (const kind of kinds) {
    const mine = found.filter((f) => f.kind === kind);
    const taken = new Set(before.filter((m) => m.kind === kind.kind).map((m) => m.name));
    const names = addressNames(
      mine.map((f) => f.item),
      taken,
    );
    mine.forEach((f, i) => {
      const existing = known.get(f);
      if (existing) {
        resources.push({ address: existing.address, id: f.item.observed.id, file: existing.source.file, status: 'existing' });
        return;
      }
      const name = names[i];
      const address = addressOf(kind.kind, name);
      if (name !== f.item.name) {
        const list = clashes.get(`${kind.kind}/${f.item.name}`) ?? [];
        list.push({ address, by: f.item.distinguishedBy });
        clashes.set(`${kind.kind}/${f.item.name}`, list);
      }
      const adopted = kind.adoption.toSpec(f.item);
      const envNames = adopted.secrets.map((s) => secretName(s.words, usedSecrets));
      const shaped = shapeSpec(kind, adopted, name, (n) => `\${env:${envNames[n]}}`);
      adopted.secrets.forEach((s, n) => {
        secrets.push(envNames[n]);
        envLines.push(`# ${address}: ${namedFieldPath(adopted.spec, s.path)}`, `${envNames[n]}=`);
      });
      for (const u of shaped.unwritten) unwritten.push({ address, path: namedFieldPath(adopted.spec, u.path), reason: u.reason });
      const home = f.item.home;
      const group = byFile.get(home) ?? { home, documents: [] };
      group.documents.push({ kind: kind.kind, name, spec: shaped.spec });
      byFile.set(home, group);
      fresh.push({ ...f, address });
      resources.push({ address, id: f.item.observed.id, file: home, status: 'written' });
    });
  }

  // One file per resource group / workspace; a name already taken gets the next free number.
  const files: string[] = [];
  const fileOf = new Map<string, string>();
  for (const { home, documents } of byFile.values()) {
    const file = join(
      request.out,
      fileNameFor(home, (n) => existsSync(join(request.out, n))),
    );
    writeManifestFile(file, home, documents);
    files.push(file);
    fileOf.set(home, shown(request.cwd, file));
  }
  if (envLines.length > 0) writeEnvExample(join(request.out, '.env.example'), envLines);
  const written = resources.map((r) => (r.status === 'written' ? { ...r, file: fileOf.get(r.file) ?? r.file } : r));

  // The folder as plan will read it: it must validate with no error and no warning.
  const check = found.length > 0 || before.length > 0 ? await loadFolder(session, request) : undefined;
  const diagnostics = check?.diagnostics ?? [];
  let notImported: DiscoverReport['notImported'] = [];
  let imported = new Set<string>();
  if (request.import && check && !hasErrors(diagnostics)) {
    const manifests = new Map(check.manifests.map((m) => [m.address, m]));
    const toImport = [
      ...fresh.map((f) => ({ address: f.address, kind: f.kind, observed: f.item.observed })),
      // A resource an earlier discover wrote but did not import is imported now, by its own manifest.
      ...found.flatMap((f) => {
        const m = known.get(f);
        return m && !recordOf(state, m.address) ? [{ address: m.address, kind: f.kind, observed: f.item.observed }] : [];
      }),
    ].flatMap((t) => {
      const manifest = manifests.get(t.address);
      return manifest ? [{ manifest, kind: t.kind, observed: t.observed }] : [];
    });
    notImported = await importAdopted(session, toImport, request.env);
    const refused = new Set(notImported.map((n) => n.address));
    imported = new Set(toImport.map((t) => t.manifest.address).filter((a) => !refused.has(a)));
  }
  return {
    resources: written.map((r) => (imported.has(r.address) ? { ...r, imported: true } : r)),
    files: files.map((f) => shown(request.cwd, f)),
    secrets,
    unwritten,
    clashes: [...clashes.entries()].map(([key, addresses]) => ({ name: key.slice(key.indexOf('/') + 1), addresses })),
    notImported,
    passedOver,
    diagnostics,
  };
}

/** By home, name and id: the order of the files' documents, the same on every run (code points, not the locale's). */
function compare(a: Found, b: Found): number {
  return order(a.item.home, b.item.home) || order(a.item.name, b.item.name) || order(a.item.observed.id, b.item.observed.id);
}

function order(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function shown(cwd: string, file: string): string {
  const rel = file.startsWith(cwd + '/') ? file.slice(cwd.length + 1) : file;
  return rel;
}

function hasManifests(dir: string): boolean {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { recursive: true }).some((f) => /\.ya?ml$/.test(String(f)));
}

function loadFolder(session: Session, request: DiscoverRequest) {
  return loadAndValidate([request.out], session.kinds, { cwd: request.cwd, skip: configFiles(session.config, request.cwd), stack: session.config.stack });
}

/** The manifests DIR holds already; refused when they have errors (what they describe would be unclear). */
async function existingManifests(session: Session, request: DiscoverRequest): Promise<Manifest[]> {
  if (!hasManifests(resolve(request.out))) return [];
  const loaded = await loadFolder(session, request);
  if (hasErrors(loaded.diagnostics))
    throw new UserError(`the manifests already in ${shown(request.cwd, request.out)} have errors; fix them first, nothing was written`, loaded.diagnostics);
  return loaded.manifests;
}

/**
 * Which live resources a manifest in DIR already describes: the one state records with its id, or
 * else one whose identity (name, resource group, workspace, id) is the resource's. One manifest each.
 */
function matchExisting(found: readonly Found[], manifests: readonly Manifest[], state: StateDocument): Map<Found, Manifest> {
  const out = new Map<Found, Manifest>();
  const free = new Set(manifests);
  const byId = new Map<string, Manifest>();
  for (const m of manifests) {
    const id = recordOf(state, m.address)?.id;
    if (id) byId.set(id.toLowerCase(), m);
  }
  for (const f of found) {
    const m = byId.get(f.item.observed.id.toLowerCase());
    if (m?.kind === f.kind.kind) {
      out.set(f, m);
      free.delete(m);
    }
  }
  for (const f of found) {
    if (out.has(f)) continue;
    const handler = f.kind.resource;
    const m = [...free].find(
      (c) =>
        c.kind === f.kind.kind &&
        !recordOf(state, c.address)?.id &&
        handler.identityMismatches?.({ name: c.name, spec: c.spec, id: f.item.observed.id }, f.item.observed).length === 0,
    );
    if (m) {
      out.set(f, m);
      free.delete(m);
    }
  }
  return out;
}

/** The state's record of an address: none for a resource state does not know. */
function recordOf(state: StateDocument, address: string): ResourceRecord | undefined {
  return state.resources[address];
}
