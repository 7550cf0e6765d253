// Plan's reads begun while the manifests still load: each manifest valid on its own is handed to
// the prefetch as soon as state is read, so the listings (reads, under the state lock) overlap
// loading and validating the rest; under a rate limit the run then costs its requests, not its
// start-up plus its requests. Planning uses them unless the plan moves records (metadata.movedFrom):
// then the targets depend on the moves and it reads again.
import type { KindCatalog } from '../../core/kind-catalog.js';
import type { KindContext } from '../../core/kind.js';
import type { Manifest } from '../manifest.js';
import type { ResolveContext, ResolvedSpec } from '../resolve.js';
import type { StateDocument } from '../state/types.js';
import { startPrefetch, type PrefetchRun } from './prefetch.js';
import { specResolver } from './spec-resolver.js';

/** The reads begun, and the resolved specs they were made from (planning resolves each manifest once). */
export interface BegunReads {
  readonly state: StateDocument;
  readonly resolved: (manifest: Manifest) => ResolvedSpec;
  readonly reads: PrefetchRun;
}

export interface EarlyReads {
  /** A manifest just loaded and valid on its own: its read starts once state is read. */
  add(manifest: Manifest): void;
  /** The reads begun, once state is read (rejects as reading state did). */
  begun(): Promise<BegunReads>;
}

export interface EarlyReadOptions {
  /** State being read meanwhile: the records' last-applied specs and ids find the live resources. */
  readonly state: Promise<StateDocument>;
  readonly kinds: KindCatalog;
  readonly ctx: KindContext;
  readonly resolve: Omit<ResolveContext, 'outputs'>;
}

export function beginReads(o: EarlyReadOptions): EarlyReads {
  const queued: Manifest[] = [];
  let reads: PrefetchRun | undefined;
  const ready = o.state.then((state): BegunReads => {
    const resolved = specResolver(state, o.resolve, o.kinds);
    reads = startPrefetch({ state, ctx: o.ctx, resolved, kinds: o.kinds });
    for (const m of queued.splice(0)) reads.add(m);
    return { state, resolved, reads };
  });
  ready.catch(() => undefined); // whoever awaits the state reports why it could not be read
  return {
    add: (m) => (reads ? reads.add(m) : void queued.push(m)),
    begun: () => ready,
  };
}
