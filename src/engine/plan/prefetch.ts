// Reads by listing while planning: a kind that can list (container groups per resource group)
// reads many resources in a few paged requests; what a list cannot answer is read one by one.
// Each manifest is compared as soon as its own listing is back, not after every page of every
// listing: under a rate limit the comparing overlaps the waiting for the service's tokens. A
// kind's listings may start before state is read, from the manifests alone (KindListings.foresee).
import type { JsonObject } from '../../core/json.js';
import type { Manifest } from '../manifest.js';
import type { ResolvedSpec } from '../resolve.js';
import type { KindCatalog } from '../../core/kind-catalog.js';
import type { KindContext, ListAnswer, ListReader, ListRun, ResourceKind, Observed, ReadTarget } from '../../core/kind.js';
import type { ResourceRecord, StateDocument } from '../state/types.js';

export interface PrefetchOptions {
  readonly state: StateDocument;
  readonly ctx: KindContext;
  /** The manifest's spec resolved as planning resolves it (once per manifest: placeholders' files are read once). */
  readonly resolved: (manifest: Manifest) => ResolvedSpec;
  readonly kinds: KindCatalog;
}

/** What a listing told of one address: the live resource (undefined: listed as absent), or 'read': read it one by one. */
export type Listed = { readonly observed: Observed | undefined } | 'read';

export interface Prefetched {
  /** The listing's answer for `address` once its listing is back; undefined when no listing covers it. */
  listed(address: string): Promise<Listed> | undefined;
}

/** The read target as planning builds it: the last applied spec finds a resource whose address fields changed. */
export function readTarget(manifest: Manifest, desired: JsonObject, record: ResourceRecord | undefined): ReadTarget {
  return {
    name: manifest.name,
    spec: record?.lastApplied ?? desired,
    recordedId: record?.id,
    pendingSince: record?.pending?.action === 'create' ? record.pending.since : undefined,
  };
}

interface Pending {
  readonly address: string;
  readonly target: ReadTarget;
  settle?: (listed: Listed) => void;
}

/** Reads by listing that start as manifests become known: `add` each, then `finish` once all are added. */
export interface PrefetchRun extends Prefetched {
  /** Starts reading `manifest` when its kind lists (a listing may start at once, see ListReader.begin). */
  add(manifest: Manifest): void;
  /** Every manifest is added: what no listing started for is listed now, and every answer settles. */
  finish(): void;
}

/** One kind's targets so far, and its reading when the kind can read before all are known. */
interface KindReading {
  readonly kind: ResourceKind;
  readonly reader: ListReader;
  readonly items: Pending[];
  readonly run?: ListRun;
}

/**
 * Each listing kind's reading, which may start before state is read: `foresee` hands a kind the
 * manifests' own targets (ListRun.foresee), the prefetch adds the targets state gives once it is in.
 */
export class KindListings {
  private readonly byKind = new Map<ResourceKind, KindReading>();

  constructor(
    private readonly ctx: KindContext,
    private readonly kinds: KindCatalog,
  ) {}

  /** The kind of `m` when it reads by listing. */
  listingKind(m: Manifest): ResourceKind | undefined {
    const kind = this.kinds.kindNamed(m.kind);
    return kind?.category === 'resource' && kind.resource.list ? kind : undefined;
  }

  /**
   * A manifest read later, known before state is: its listing may start from the spec as written
   * (a top-level value with a placeholder is left out, as it is not known yet). Nothing is answered
   * from it: its answer comes once the prefetch adds its target.
   */
  foresee(m: Manifest): void {
    const kind = this.listingKind(m);
    if (kind) this.readingOf(kind).run?.foresee?.(readTarget(m, knownValues(m.spec), undefined));
  }

  readingOf(kind: ResourceKind): KindReading {
    const known = this.byKind.get(kind);
    if (known) return known;
    const items: Pending[] = [];
    const reader = kind.resource.list;
    if (!reader) throw new Error(`internal error: ${kind.kind} does not read by listing`); // listingKind chose it because it does
    const reading = { kind, reader, items, run: reader.begin?.(this.ctx, settler(items, reader)) };
    this.byKind.set(kind, reading);
    return reading;
  }

  /** Every kind's listings, each target settled once whatever its listing does. */
  finish(): void {
    for (const reading of this.byKind.values()) void listKind(reading, this.ctx, settler(reading.items, reading.reader));
  }
}

/** The answer of the i-th item as the reader gives it (a found resource an incomplete list cannot diff: read it). */
function settler(items: Pending[], reader: ListReader): (i: number, a: ListAnswer) => void {
  return (i, a) => {
    const item = items[i] as Pending | undefined; // i comes from the kind's listing code
    if (!item?.settle) return;
    item.settle(a === 'read' || (a !== undefined && !reader.complete) ? 'read' : { observed: a });
    item.settle = undefined;
  };
}

/** The spec's top-level values without a placeholder (`${env:}`, `${file:}`, `${ref:}` are resolved later). */
function knownValues(spec: JsonObject): JsonObject {
  const known: JsonObject = {};
  for (const [key, value] of Object.entries(spec)) if (!(typeof value === 'string' && value.includes('${'))) known[key] = value;
  return known;
}

/** Starts every kind's listings and returns at once; each address's answer settles as its listing arrives. */
export function prefetchReads(manifests: readonly Manifest[], o: PrefetchOptions): Prefetched {
  const run = startPrefetch(o);
  for (const m of manifests) run.add(m);
  run.finish();
  return run;
}

/**
 * A prefetch whose manifests are added one by one (plan adds each as it loads, valid on its own);
 * `listings`: the kinds' readings begun before state was read (KindListings.foresee).
 */
export function startPrefetch(o: PrefetchOptions, listings = new KindListings(o.ctx, o.kinds)): PrefetchRun {
  const answers = new Map<string, Promise<Listed>>();
  return {
    add(m) {
      const kind = listings.listingKind(m);
      if (!kind || answers.has(m.address)) return;
      const resolved = o.resolved(m);
      // Planning reports what does not resolve; such a manifest is not read at all.
      if (resolved.pending || resolved.diagnostics.some((d) => d.severity === 'error')) return;
      const item: Pending = { address: m.address, target: readTarget(m, resolved.spec, o.state.resources[m.address]) };
      answers.set(
        item.address,
        new Promise<Listed>((resolve) => {
          item.settle = resolve;
        }),
      );
      const reading = listings.readingOf(kind);
      reading.items.push(item);
      reading.run?.add(item.target);
    },
    finish: () => listings.finish(),
    listed: (address) => answers.get(address),
  };
}

/** Lists one kind's targets; every target is settled once, whatever the listing does (a failure: read one by one). */
async function listKind({ reader, items, run }: KindReading, ctx: KindContext, settle: (i: number, a: ListAnswer) => void): Promise<void> {
  let answers: ListAnswer[] = [];
  try {
    answers = await (run
      ? run.finish()
      : reader.readAll(
          ctx,
          items.map((i) => i.target),
          settle,
        ));
  } catch {
    // the one-by-one reads that follow report the service's error where it belongs
  }
  items.forEach((_, i) => settle(i, i < answers.length ? answers[i] : 'read'));
}
