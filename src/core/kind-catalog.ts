// The kinds a run knows, handed to load, validate, plan, apply and import by the edge (CLI,
// bench, tests) so the engine names no kind: the built-in set, or fake kinds in a test.
import type { DocumentKind, KindDefinition } from './kind.js';

export interface KindCatalog {
  /** Every kind, in the order users see them listed. */
  readonly kinds: readonly KindDefinition[];
  kindNamed(name: string): KindDefinition | undefined;
  /** Documents that are no resource (Policy): loaded and schema-checked, never planned. */
  readonly documents: readonly DocumentKind[];
  documentNamed(name: string): DocumentKind | undefined;
}

export function kindCatalog(kinds: readonly KindDefinition[], documents: readonly DocumentKind[] = []): KindCatalog {
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  const documentsByName = new Map(documents.map((d) => [d.kind, d]));
  return { kinds, kindNamed: (name) => byName.get(name), documents, documentNamed: (name) => documentsByName.get(name) };
}
