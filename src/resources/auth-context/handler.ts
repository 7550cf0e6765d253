// How moor reads and changes an AuthContext through the Graph client (PATCH is an upsert).
import type { JsonObject, JsonPath } from '../../core/json.js';
import type { AuthContextBody, AuthContextPatch } from '../../providers/graph.js';
import type { KindContext, ListReader, Observed, ResourceHandler } from '../../core/kind.js';

const PROPS = ['displayName', 'description', 'isAvailable'] as const;
type Prop = (typeof PROPS)[number];

/** The reference id: `spec.id`, defaulting to the manifest name. */
export function authContextId(name: string, spec: JsonObject): string {
  return typeof spec.id === 'string' ? spec.id : name;
}

function toSpec(live: AuthContextBody): JsonObject {
  const spec: JsonObject = { id: live.id };
  for (const p of PROPS) if (live[p] !== undefined && live[p] !== null) spec[p] = live[p];
  return spec;
}

function observed(live: AuthContextBody): Observed {
  return { id: live.id, spec: toSpec(live), outputs: { ...live } };
}

/** What a property the manifest no longer sets goes back to: its value on a new reference. */
const CLEARED: Readonly<Record<Prop, null | boolean>> = { displayName: null, description: null, isAvailable: false };

/** The listed properties that the spec sets; with `clear`, the ones it does not set are cleared. */
function patchOf(spec: JsonObject, props: readonly Prop[], clear = false): AuthContextPatch {
  const patch: Record<string, unknown> = {};
  for (const p of props) {
    if (Object.hasOwn(spec, p)) patch[p] = spec[p];
    else if (clear) patch[p] = CLEARED[p];
  }
  return patch;
}

/** PATCHes and reads back; PATCH answers 204 without a body. */
async function patchAndRead(ctx: KindContext, id: string, patch: AuthContextPatch): Promise<Observed> {
  await ctx.providers.graph.patchAuthContext(id, patch);
  const live = await ctx.providers.graph.getAuthContext(id);
  return observed(live ?? { id, ...patch });
}

function changedProps(changed: readonly JsonPath[]): Prop[] {
  const top = new Set(changed.map((p) => String(p[0])));
  return PROPS.filter((p) => top.has(p));
}

/** Plan and drift read every reference with one list when more than one is managed; the list holds what the diff compares. */
const list: ListReader = {
  complete: true,
  async readAll(ctx, targets) {
    if (targets.length < 2) return targets.map(() => 'read' as const);
    const byId = new Map((await ctx.providers.graph.listAuthContexts()).map((c) => [c.id, c]));
    return targets.map((t) => {
      const live = byId.get(t.recordedId ?? authContextId(t.name, t.spec));
      return live ? observed(live) : undefined;
    });
  },
};

export const resource: ResourceHandler = {
  nameField: 'id',
  idempotentWrites: true,
  list,
  async read(ctx, { name, spec, recordedId }) {
    const live = await ctx.providers.graph.getAuthContext(recordedId ?? authContextId(name, spec));
    return live ? observed(live) : undefined;
  },
  create: (ctx, name, spec) => patchAndRead(ctx, authContextId(name, spec), patchOf(spec, PROPS)),
  async update(ctx, name, spec, current, changed) {
    // Only the changed properties: the rest keep their values on the service. A property the
    // manifest stopped setting (the plan shows it removed) is cleared.
    const props = changedProps(changed);
    if (props.length === 0) return current;
    return patchAndRead(ctx, current.id || authContextId(name, spec), patchOf(spec, props, true));
  },
  async delete(ctx, id) {
    await ctx.providers.graph.deleteAuthContext(id);
  },
  identityMismatches(target, observed) {
    const wanted = authContextId(target.name, target.spec);
    return observed.id === wanted ? [] : [`its id is ${observed.id}, the manifest's is ${wanted}`];
  },
};
