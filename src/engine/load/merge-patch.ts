// Overlays: JSON merge patch (RFC 7386) of one manifest document by another, with arrays of named
// things merged by their key, remembering which document set each value so that a diagnostic in
// the merged result points at the line that set it. Written here rather than taken from a merge
// patch package: keyed arrays and the record of origins are the point, and neither has them.
import { isObject, type JsonPath, type JsonValue } from '../../core/json.js';
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

/** The key field of the array at `path` (from the document root), or undefined for a list merged as a whole. */
export type ArrayKeyOf = (path: JsonPath) => string | undefined;

/** A merged document and the map that locates its values in the documents that set them. */
export class MergedDocument {
  private readonly root: OriginNode;

  constructor(public value: JsonValue, base: SourceMap, baseRoot?: string) {
    this.root = { origin: { source: base, path: [], root: baseRoot } };
  }

  /** Applies `patch` (a document of `source`, under `root`) over the value: `null` removes a key, keyed arrays merge by key. */
  apply(patch: JsonValue, source: SourceMap, keyOf: ArrayKeyOf, root?: string): void {
    this.value = mergeValue(this.value, patch, { source, path: [], root }, this.root, [], keyOf);
  }

  /** The source map of the merged document. */
  sourceMap(): SourceMap {
    const root = this.root;
    return {
      // The base document's file; a value's ${file:} paths start from the file that set it (originAt).
      file: root.origin.source.file,
      path: root.origin.source.path,
      locate: (path: JsonPath, at?: 'key' | 'value'): SourceLocation => {
        const { node, depth } = nodeAt(root, path);
        return node.origin.source.locate([...node.origin.path, ...path.slice(depth)], at);
      },
      originAt: (path: JsonPath) => {
        const { origin } = nodeAt(root, path).node;
        return { path: origin.source.path, root: origin.root };
      },
    };
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

function mergeValue(target: JsonValue, patch: JsonValue, from: Origin, node: OriginNode, path: JsonPath, keyOf: ArrayKeyOf): JsonValue {
  if (isObject(patch) && isObject(target)) return mergeObject(target, patch, from, node, path, keyOf);
  const key = Array.isArray(patch) && Array.isArray(target) ? keyOf(path) : undefined;
  if (key !== undefined) return mergeKeyed(target as JsonValue[], patch as JsonValue[], key, from, node, path, keyOf);
  replaceOrigin(node, from);
  return withoutNulls(patch);
}

function mergeObject(target: { [k: string]: JsonValue }, patch: { [k: string]: JsonValue }, from: Origin, node: OriginNode, path: JsonPath, keyOf: ArrayKeyOf): JsonValue {
  const out: { [k: string]: JsonValue } = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete out[k];
      node.children?.delete(k);
      continue;
    }
    const childFrom = { ...from, path: [...from.path, k] };
    if (!(k in out)) {
      out[k] = withoutNulls(v);
      childOf(node, k, childFrom, true);
      continue;
    }
    out[k] = mergeValue(out[k], v, childFrom, childOf(node, k, childFrom, false), [...path, k], keyOf);
  }
  return out;
}

/** Elements with the key of a target element patch it; the others are added at the end. */
function mergeKeyed(target: JsonValue[], patch: JsonValue[], key: string, from: Origin, node: OriginNode, path: JsonPath, keyOf: ArrayKeyOf): JsonValue {
  const out = [...target];
  const index = new Map<string, number>();
  out.forEach((e, i) => { if (isObject(e) && e[key] !== undefined) index.set(JSON.stringify(e[key]), i); });
  patch.forEach((element, i) => {
    const elementFrom = { ...from, path: [...from.path, i] };
    const at = isObject(element) && element[key] !== undefined ? index.get(JSON.stringify(element[key])) : undefined;
    if (at === undefined) {
      childOf(node, out.length, elementFrom, true);
      out.push(withoutNulls(element));
      return;
    }
    out[at] = mergeValue(out[at], element, elementFrom, childOf(node, at, elementFrom, false), [...path, at], keyOf);
  });
  return out;
}

/**
 * The origin node of a child: `replace` makes it the patch's; otherwise an existing node, or a new
 * one that inherits its parent's origin (the child came with the parent until now).
 */
function childOf(node: OriginNode, segment: string | number, from: Origin, replace: boolean): OriginNode {
  node.children ??= new Map();
  const existing = node.children.get(String(segment));
  if (existing && !replace) return existing;
  const child: OriginNode = replace ? { origin: from } : { origin: { ...node.origin, path: [...node.origin.path, segment] } };
  node.children.set(String(segment), child);
  return child;
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
  const out: { [k: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
  return out;
}
