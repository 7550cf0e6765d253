// Each manifest's spec resolved once per plan (its `${file:}` files read once): prefetch and planning share it.
import type { KindCatalog } from '../../core/kind-catalog.js';
import type { Manifest } from '../manifest.js';
import { resolveSpec, type ResolveContext, type ResolvedSpec } from '../resolve.js';
import { recordAt, type StateDocument } from '../state/types.js';
import { getAt, type JsonPath } from '../../core/json.js';
import { ADOPTED_SECRET } from '../secrets.js';

/** Resolves against `state`'s outputs (`${ref:}`), remembering each manifest's result. */
export function specResolver(state: StateDocument, context: Omit<ResolveContext, 'outputs'>, kinds: KindCatalog): (m: Manifest) => ResolvedSpec {
  const outputs = (address: string) => recordAt(state, address)?.outputs;
  const resolved = new Map<Manifest, ResolvedSpec>();
  return (m) => {
    const known = resolved.get(m);
    if (known) return known;
    const last = recordAt(state, m.address)?.lastApplied;
    // A secret adopted by moor discover and never seen: an unset placeholder leaves it as it is.
    const adopted = last ? (path: JsonPath) => getAt(last, path) === ADOPTED_SECRET : undefined;
    const spec = resolveSpec(m, { ...context, outputs, adopted }, kinds.kindNamed(m.kind)?.specSchema);
    resolved.set(m, spec);
    return spec;
  };
}
