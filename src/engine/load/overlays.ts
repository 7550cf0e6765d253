// Loading with a stack: a resource of a later path (an overlay) with the address of one of an
// earlier path patches it (merge-patch.ts); any other document (a Policy too) is added as it is.
import { isObject, type JsonPath, type JsonValue } from '../../core/json.js';
import type { KindCatalog } from '../../core/kind-catalog.js';
import { compileRules } from '../diff/compiled-rules.js';
import type { SourceMap } from '../manifest.js';
import { MergedDocument, type ArrayKeyOf } from './merge-patch.js';

/** A document as read, with the index of the path it was found under (0: the base). */
export interface LayeredDocument {
  readonly value: unknown;
  readonly source: SourceMap;
  readonly root: string;
  readonly layer: number;
}

/** A document of a path that could not be read (a YAML error), with the address its header names if any. */
export interface UnreadLayeredDocument {
  readonly address?: { readonly kind: string; readonly name: string };
  readonly layer: number;
}

/**
 * The documents with overlays applied, in the order of their first appearance, base first. Two
 * documents of one address in the same path are both kept: validation reports the duplicate.
 * An overlay whose base may be a document that failed to parse is left out: checked alone it
 * would only repeat that error as missing fields (the parse error is already reported).
 */
export function applyOverlays(documents: readonly LayeredDocument[], kinds: KindCatalog, unread: readonly UnreadLayeredDocument[] = []): LayeredDocument[] {
  const ordered = [...documents].sort((a, b) => a.layer - b.layer);
  const out: LayeredDocument[] = [];
  const merged = new Map<number, MergedDocument>();
  const byAddress = new DocumentIndex();
  const keysByKind = new Map<string, ArrayKeyOf>();
  for (const doc of ordered) {
    // A Policy is never overlaid: a later path's Policy of one name would weaken it silently, so
    // both are kept and validation reports the second as a duplicate.
    const address = addressOfDocument(doc.value, kinds);
    const at = address === undefined ? undefined : byAddress.get(address);
    if (at === undefined && address !== undefined && mayOverlayUnread(address, doc.layer, unread)) continue;
    if (at === undefined || out[at].layer >= doc.layer) {
      if (address !== undefined && at === undefined) byAddress.set(address, out.length);
      out.push(doc);
      continue;
    }
    const target = merged.get(at) ?? new MergedDocument(out[at].value as JsonValue, out[at].source, out[at].root);
    merged.set(at, target);
    target.apply(doc.value as JsonValue, doc.source, arrayKeys(kinds, (doc.value as { kind: string }).kind, keysByKind), doc.root);
  }
  for (const [at, doc] of merged) out[at] = { ...out[at], value: doc.value, source: doc.sourceMap() };
  return out;
}

/** Whether a document of `layer` with no base may overlay an earlier path's unread document: one of its address, or one whose address is unknown. */
function mayOverlayUnread(address: { kind: string; name: string }, layer: number, unread: readonly UnreadLayeredDocument[]): boolean {
  return unread.some((u) => u.layer < layer && (u.address === undefined || (u.address.kind === address.kind && u.address.name === address.name)));
}

/** The kind and name of a resource whose header says so plainly; other documents (a Policy) are never overlaid. */
function addressOfDocument(value: unknown, kinds: KindCatalog): { readonly kind: string; readonly name: string } | undefined {
  if (!isObject(value) || typeof value.kind !== 'string' || !isObject(value.metadata) || typeof value.metadata.name !== 'string') return undefined;
  if (kinds.documentNamed(value.kind)) return undefined;
  return { kind: value.kind, name: value.metadata.name };
}

/** Documents' indexes by kind, then name: no `Kind/name` string is built and hashed per document. */
class DocumentIndex {
  private readonly byKind = new Map<string, Map<string, number>>();

  get({ kind, name }: { kind: string; name: string }): number | undefined {
    return this.byKind.get(kind)?.get(name);
  }

  set({ kind, name }: { kind: string; name: string }, at: number): void {
    let names = this.byKind.get(kind);
    if (!names) this.byKind.set(kind, (names = new Map<string, number>()));
    names.set(name, at);
  }
}

/** The kind's keyed arrays (its diff rules' array keys, paths under spec) as seen from the document root; a kind without diff rules has none. */
function arrayKeys(kinds: KindCatalog, kind: string, keysByKind: Map<string, ArrayKeyOf>): ArrayKeyOf {
  let keyOf = keysByKind.get(kind);
  if (!keyOf) {
    const definition = kinds.kindNamed(kind);
    const rules = definition && 'diff' in definition ? compileRules(definition.diff) : undefined;
    keyOf = (path: JsonPath) => (rules && path[0] === 'spec' ? rules.keyOf(path.slice(1)) : undefined);
    keysByKind.set(kind, keyOf);
  }
  return keyOf;
}
