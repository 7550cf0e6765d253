// Each manifest's spec resolved once per plan (its `${file:}` files read once): prefetch and planning share it.
import type { KindCatalog } from '../../core/kind-catalog.js';
import type { Manifest } from '../manifest.js';
import { resolveSpec, type ResolveContext, type ResolvedSpec } from '../resolve.js';
import type { StateDocument } from '../state/types.js';

/** Resolves against `state`'s outputs (`${ref:}`), remembering each manifest's result. */
export function specResolver(state: StateDocument, context: Omit<ResolveContext, 'outputs'>, kinds: KindCatalog): (m: Manifest) => ResolvedSpec {
  const outputs = (address: string) => state.resources[address]?.outputs;
  const resolved = new Map<Manifest, ResolvedSpec>();
  return (m) => {
    const known = resolved.get(m);
    if (known) return known;
    const spec = resolveSpec(m, { ...context, outputs }, kinds.kindNamed(m.kind)?.specSchema);
    resolved.set(m, spec);
    return spec;
  };
}
