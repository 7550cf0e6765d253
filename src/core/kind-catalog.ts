// The kinds a run knows, handed to load, validate, plan, apply and import by the edge (CLI,
// bench, tests) so the engine names no kind: the built-in set, or fake kinds in a test.
import type { KindDefinition } from './kind.js';

export interface KindCatalog {
  /** Every kind, in the order users see them listed. */
  readonly kinds: readonly KindDefinition[];
  kindNamed(name: string): KindDefinition | undefined;
}

export function kindCatalog(kinds: readonly KindDefinition[]): KindCatalog {
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  return { kinds, kindNamed: (name) => byName.get(name) };
}
