// moor discover for auth contexts: every reference of the tenant (Graph's list, every page), named by its id.
import type { Adoption } from '../../core/kind.js';
import type { JsonObject } from '../../core/json.js';

const PROPS = ['displayName', 'description', 'isAvailable'] as const;

export const adoption: Adoption = {
  async list(ctx, scope, listed) {
    if (!scope.tenant) return [];
    const all = await ctx.providers.graph.listAuthContexts();
    listed(all.length, 'the tenant');
    return all.map((live) => {
      const spec: JsonObject = { id: live.id };
      for (const p of PROPS) if (live[p] !== undefined && live[p] !== null) spec[p] = live[p];
      return { observed: { id: live.id, spec, outputs: { ...live } }, name: live.id, home: 'auth-contexts', distinguishedBy: `id ${live.id}`, suffix: live.id };
    });
  },
  toSpec({ observed }) {
    const raw = observed.outputs;
    const known = new Set<string>(['id', '@odata.context', ...PROPS]);
    const unwritten = Object.keys(raw)
      .filter((k) => !known.has(k))
      .map((k) => ({ path: [k], reason: "moor's schema of an auth context does not know this field" }));
    return { spec: structuredClone(observed.spec), secrets: [], unwritten };
  },
};
