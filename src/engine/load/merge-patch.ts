// Overlays: JSON merge patch (RFC 7386) of one manifest document by another, with arrays of named
// things merged by their key, remembering which document set each value so that a diagnostic in
// the merged result points at the line that set it. Written here rather than taken from a merge
// patch package: keyed arrays and the record of origins are the point, and neither has them.
import { fieldOf, isObject, type JsonPath, type JsonValue } from '../../core/json.js';
import type { SourceLocation } from '../../core/diagnostics.js';
import type { SourceMap } from '../manifest.js';

/** Where a value of the merged document came from: a document's source and the value's path in it. */
interface Origin {
  readonly source: SourceMap;
  readonly path: JsonPath;
  /** The manifests' root of that document (where its `${file:}` paths must stay). */
  readonly root?: string;
}

/**
 * The origins of a merged value: its own, and those of the children that came from elsewhere
 * (keyed by their segment in the merged value). A child not listed came with its parent.
 */
interface OriginNode {
  readonly origin: Origin;
  children?: Map<string, OriginNode>;
}

/**
 * The key field of the array at `path` (from the document root), or undefined for a list merged as
 * a whole. The merge walks one path it extends and shortens: copy it to keep it past the call.
 */
export type ArrayKeyOf = (path: JsonPath) => string | undefined;

/** An overlay applied to a merged document, kept to find its values' origins when asked. */
interface Layer {
  readonly patch: JsonValue;
  readonly origin: Origin;
  readonly keyOf: ArrayKeyOf;
}

/**
 * A merged document and the map that locates its values in the documents that set them. The record
 * of origins is built only when a location is first asked for (a diagnostic, a `${file:}` path), by
 * merging the overlays again over the base: valid manifests, nearly all of them, never pay for it.
 */
export class MergedDocument {
  private readonly base: Layer;
  private readonly layers: Layer[] = [];
  private origins?: OriginNode;

  constructor(
    public value: JsonValue,
    base: SourceMap,
    baseRoot?: string,
  ) {
    this.base = { patch: value, origin: { source: base, path: [], root: baseRoot }, keyOf: () => undefined };
  }

  /** Applies `patch` (a document of `source`, under `root`) over the value: `null` removes a key, keyed arrays merge by key. */
  apply(patch: JsonValue, source: SourceMap, keyOf: ArrayKeyOf, root?: string): void {
    this.value = mergeValue(this.value, patch, undefined, [], keyOf);
    this.layers.push({ patch, origin: { source, path: [], root }, keyOf });
    this.origins = undefined;
  }

  /** The source map of the merged document. */
  sourceMap(): SourceMap {
    return new MergedSourceMap(this.base.origin.source, this);
  }

  /** The origins of the merged values, from merging the overlays again over the base while recording them. */
  originTree(): OriginNode {
    if (this.origins) return this.origins;
    const root: OriginNode = { origin: this.base.origin };
    let value = this.base.patch;
    for (const layer of this.layers) value = mergeValue(value, layer.patch, { from: layer.origin, node: root }, [], layer.keyOf);
    this.origins = root;
    return root;
  }
}

/**
 * Locates a merged document's values in the documents that set them. A class rather than closures:
 * every merged document keeps one until validation ends, and a private field keeps the origins out
 * of anything that serializes the map.
 */
class MergedSourceMap implements SourceMap {
  readonly #base: SourceMap;
  readonly #merged: MergedDocument;

  constructor(base: SourceMap, merged: MergedDocument) {
    this.#base = base;
    this.#merged = merged;
  }

  /** The base document's file; a value's ${file:} paths start from the file that set it (originAt). */
  get file(): string {
    return this.#base.file;
  }

  get path(): string {
    return this.#base.path;
  }

  locate(path: JsonPath, at?: 'key' | 'value'): SourceLocation {
    const { node, depth } = nodeAt(this.#merged.originTree(), path);
    return node.origin.source.locate([...node.origin.path, ...path.slice(depth)], at);
  }

  setterOf(path: JsonPath): { readonly path: string; readonly at: JsonPath } {
    const { node, depth } = nodeAt(this.#merged.originTree(), path);
    return { path: node.origin.source.path, at: [...node.origin.path, ...path.slice(depth)] };
  }

  originAt(path: JsonPath): { readonly path: string; readonly root?: string } {
    const { origin } = nodeAt(this.#merged.originTree(), path).node;
    return { path: origin.source.path, root: origin.root };
  }
}

/** The origin node of the value at `path`, and how deep into the path it was found. */
function nodeAt(root: OriginNode, path: JsonPath): { node: OriginNode; depth: number } {
  let node = root;
  let depth = 0;
  for (; depth < path.length; depth++) {
    const child = node.children?.get(String(path[depth]));
    if (!child) break;
    node = child;
  }
  return { node, depth };
}

// `path`: where the merge is in the merged value, one array shared by the whole walk (a copy per
// value was most of the merge's garbage).

/** Where the patch being merged came from and the origin node of the value it patches; absent when origins are not recorded. */
interface Tracking {
  readonly from: Origin;
  readonly node: OriginNode;
}

function mergeValue(target: JsonValue, patch: JsonValue, track: Tracking | undefined, path: (string | number)[], keyOf: ArrayKeyOf): JsonValue {
  if (isObject(patch) && isObject(target)) return mergeObject(target, patch, track, path, keyOf);
  const key = Array.isArray(patch) && Array.isArray(target) ? keyOf(path) : undefined;
  if (key !== undefined) return mergeKeyed(target as JsonValue[], patch as JsonValue[], key, track, path, keyOf);
  if (track) replaceOrigin(track.node, track.from);
  return withoutNulls(patch);
}

function mergeObject(
  target: Record<string, JsonValue>,
  patch: Record<string, JsonValue>,
  track: Tracking | undefined,
  path: (string | number)[],
  keyOf: ArrayKeyOf,
): JsonValue {
  const out: Record<string, JsonValue> = { ...target };
  const removed = new Set<string>();
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) {
      removed.add(k);
      track?.node.children?.delete(k);
      continue;
    }
    if (!(k in out)) {
      out[k] = withoutNulls(v);
      if (track) childOf(track, k, true);
      continue;
    }
    path.push(k);
    out[k] = mergeValue(out[k], v, track && childOf(track, k, false), path, keyOf);
    path.pop();
  }
  // A patch names each key once, so a key it removes is never set again above.
  return removed.size === 0 ? out : Object.fromEntries(Object.entries(out).filter(([k]) => !removed.has(k)));
}

/** Elements with the key of a target element patch it; the others are added at the end. */
function mergeKeyed(
  target: JsonValue[],
  patch: JsonValue[],
  key: string,
  track: Tracking | undefined,
  path: (string | number)[],
  keyOf: ArrayKeyOf,
): JsonValue {
  const out = [...target];
  const index = new Map<string, number>();
  out.forEach((e, i) => {
    if (isObject(e) && fieldOf(e, key) !== undefined) index.set(JSON.stringify(e[key]), i);
  });
  patch.forEach((element, i) => {
    const at = isObject(element) && fieldOf(element, key) !== undefined ? index.get(JSON.stringify(element[key])) : undefined;
    if (at === undefined) {
      if (track) childOf(track, i, true, out.length);
      out.push(withoutNulls(element));
      return;
    }
    path.push(at);
    out[at] = mergeValue(out[at], element, track && childOf(track, i, false, at), path, keyOf);
    path.pop();
  });
  return out;
}

/**
 * The tracking of a child, `segment` in the patch and `at` in the merged value: `replace` makes its
 * origin the patch's; otherwise an existing node, or a new one that inherits its parent's origin
 * (the child came with the parent until now).
 */
function childOf({ from, node }: Tracking, segment: string | number, replace: boolean, at: string | number = segment): Tracking {
  const childFrom = { ...from, path: [...from.path, segment] };
  node.children ??= new Map();
  const existing = node.children.get(String(at));
  if (existing && !replace) return { from: childFrom, node: existing };
  const child: OriginNode = replace ? { origin: childFrom } : { origin: { ...node.origin, path: [...node.origin.path, at] } };
  node.children.set(String(at), child);
  return { from: childFrom, node: child };
}

/** A value replaced whole: it and everything under it now come from the patch. */
function replaceOrigin(node: OriginNode, from: Origin): void {
  (node as { origin: Origin }).origin = from;
  node.children = undefined;
}

/** RFC 7386: a patch value put in place has its object members that are null left out. */
function withoutNulls(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
  return out;
}
