// Plan's reads begun while the manifests still load: each manifest valid on its own starts its
// listing from its spec at once (ListRun.foresee: a read, under the state lock, that needs no
// state), and is handed to the prefetch as soon as state is read, which answers it from the
// listing of where state says it is. So the listings overlap loading the rest and reading state;
// under a rate limit the run then costs its requests, not its start-up plus its requests. Nothing
// is planned from a listing before state is in and the manifests' rules pass. Planning uses these
// reads unless the plan moves records (metadata.movedFrom): then the targets depend on the moves
// and it reads again.
import type { KindCatalog } from '../../core/kind-catalog.js';
import type { KindContext } from '../../core/kind.js';
import type { Manifest } from '../manifest.js';
import type { ResolveContext, ResolvedSpec } from '../resolve.js';
import type { StateDocument } from '../state/types.js';
import { KindListings, startPrefetch, type PrefetchRun } from './prefetch.js';
import { specResolver } from './spec-resolver.js';
import { timeSlices } from '../../core/time-slices.js';

/** The reads begun, and the resolved specs they were made from (planning resolves each manifest once). */
export interface BegunReads {
  readonly state: StateDocument;
  readonly resolved: (manifest: Manifest) => ResolvedSpec;
  readonly reads: PrefetchRun;
}

export interface EarlyReads {
  /** A manifest just loaded and valid on its own: its listing may start now, its read once state is read. */
  add: (manifest: Manifest) => void;
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
  const listings = new KindListings(o.ctx, o.kinds);
  let reads: PrefetchRun | undefined;
  const ready = o.state.then(async (state): Promise<BegunReads> => {
    const resolved = specResolver(state, o.resolve, o.kinds);
    const begun = startPrefetch({ state, ctx: o.ctx, resolved, kinds: o.kinds }, listings);
    // Resolving every manifest loaded meanwhile takes a while: the event loop runs between slices.
    const slice = timeSlices();
    // Manifests loaded meanwhile join the queue: it is read to its end.
    for (const manifest of queued) {
      await slice();
      begun.add(manifest);
    }
    queued.length = 0;
    reads = begun;
    return { state, resolved, reads };
  });
  ready.catch(() => undefined); // whoever awaits the state reports why it could not be read
  return {
    add: (m) => {
      if (reads) {
        reads.add(m);
        return;
      }
      listings.foresee(m);
      queued.push(m);
    },
    begun: () => ready,
  };
}
