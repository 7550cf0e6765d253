// Reads by listing before planning: a kind that can list (container groups per resource group)
// reads many resources in a few paged requests; what a list cannot answer is read one by one.
import type { JsonObject } from '../../core/json.js';
import type { Manifest } from '../manifest.js';
import type { ResolvedSpec } from '../resolve.js';
import type { KindCatalog } from '../../core/kind-catalog.js';
import type { KindContext, ResourceKind, Observed, ReadTarget } from '../../core/kind.js';
import type { ResourceRecord, StateDocument } from '../state/types.js';

export interface PrefetchOptions {
  readonly state: StateDocument;
  readonly ctx: KindContext;
  /** The manifest's spec resolved as planning resolves it (once per manifest: placeholders' files are read once). */
  readonly resolved: (manifest: Manifest) => ResolvedSpec;
  readonly kinds: KindCatalog;
}

/** Live resources found by listing, by address (undefined: listed as absent). Absent key: read it one by one. */
export type Prefetched = ReadonlyMap<string, Observed | undefined>;

/** The read target as planning builds it: the last applied spec finds a resource whose address fields changed. */
export function readTarget(manifest: Manifest, desired: JsonObject, record: ResourceRecord | undefined): ReadTarget {
  return {
    name: manifest.name,
    spec: record?.lastApplied ?? desired,
    recordedId: record?.id,
    pendingSince: record?.pending?.action === 'create' ? record.pending.since : undefined,
  };
}

export async function prefetchReads(manifests: readonly Manifest[], o: PrefetchOptions): Promise<Prefetched> {
  const byKind = new Map<ResourceKind, Array<{ address: string; target: ReadTarget }>>();
  for (const m of manifests) {
    const kind = o.kinds.kindNamed(m.kind);
    if (kind?.category !== 'resource' || !kind.resource.list) continue;
    const resolved = o.resolved(m);
    // Planning reports what does not resolve; such a manifest is not read at all.
    if (resolved.pending || resolved.diagnostics.some((d) => d.severity === 'error')) continue;
    const list = byKind.get(kind) ?? [];
    list.push({ address: m.address, target: readTarget(m, resolved.spec, o.state.resources[m.address]) });
    byKind.set(kind, list);
  }
  const found = new Map<string, Observed | undefined>();
  await Promise.all([...byKind].map(async ([kind, items]) => {
    const reader = kind.resource.list!;
    let answers: Array<Observed | undefined | 'read'>;
    try {
      answers = await reader.readAll(o.ctx, items.map((i) => i.target));
    } catch {
      return; // the one-by-one reads that follow report the service's error where it belongs
    }
    items.forEach((item, i) => {
      const a = answers[i];
      if (a === 'read' || (a !== undefined && !reader.complete)) return;
      found.set(item.address, a);
    });
  }));
  return found;
}
