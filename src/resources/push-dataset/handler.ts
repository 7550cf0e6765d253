// How moor reads and changes a PushDataset through the analytics client; found by the dataset id recorded in state.
import type { JsonObject, JsonPath } from '../../core/json.js';
import { isObject } from '../../core/json.js';
import type { KindContext, Observed, ResourceHandler } from '../../core/kind.js';
import { createOnce, findCreatedSince, idsNamed } from './handler-create.js';
import { createRequestOf, datasetName, outputsOf, specOf, tableBodyOf } from './mapping.js';
import { shownValue, specText } from '../spec-shared/spec-text.js';

function workspaceOf(spec: JsonObject): string {
  return specText(spec, 'workspaceId');
}

/** A recorded id may be 'workspaceId/datasetId' (read across a workspace change) or the dataset id. */
function splitRecorded(recordedId: string, spec: JsonObject): { workspaceId: string; id: string } {
  const slash = recordedId.indexOf('/');
  return slash > 0 ? { workspaceId: recordedId.slice(0, slash), id: recordedId.slice(slash + 1) } : { workspaceId: workspaceOf(spec), id: recordedId };
}

async function observe(ctx: KindContext, workspaceId: string, id: string): Promise<Observed | undefined> {
  const dataset = await ctx.providers.analytics.getDataset(workspaceId, id);
  if (!dataset) return undefined;
  const tables = await ctx.providers.analytics.getTables(workspaceId, id);
  // The id as the service answers it, whatever casing it was asked for in.
  const answered = typeof dataset.id === 'string' && dataset.id.toLowerCase() === id.toLowerCase() ? dataset.id : id;
  return { id: answered, spec: specOf(workspaceId, dataset, tables), outputs: outputsOf(workspaceId, dataset, tables) };
}

/** Indexes (in the desired spec's tables) of tables whose columns or measures changed. */
function tablesToPut(changed: readonly JsonPath[]): number[] {
  const indexes = new Set<number>();
  for (const p of changed) {
    if (p[0] === 'tables' && p.length >= 3 && (p[2] === 'columns' || p[2] === 'measures')) indexes.add(Number(p[1]));
  }
  return [...indexes].sort((a, b) => a - b);
}

export const resource: ResourceHandler = {
  nameField: 'name',
  replaceIsDestructive: true,

  async read(ctx, { name, spec, recordedId, pendingSince }) {
    if (recordedId) {
      const { workspaceId, id } = splitRecorded(recordedId, spec);
      return observe(ctx, workspaceId, id);
    }
    // The name is not unique: adopt by name only what a create of ours, whose answer a crash
    // lost, made since it was sent; otherwise the engine's create would make a duplicate.
    if (!pendingSince) return undefined;
    const workspaceId = workspaceOf(spec);
    const id = await findCreatedSince(ctx.providers.analytics, workspaceId, datasetName(name, spec), pendingSince);
    return id === undefined ? undefined : observe(ctx, workspaceId, id);
  },

  async create(ctx, name, spec) {
    const workspaceId = workspaceOf(spec);
    const retention = typeof spec.defaultRetentionPolicy === 'string' ? spec.defaultRetentionPolicy : undefined;
    const created = await createOnce(ctx.providers.analytics, workspaceId, createRequestOf(name, spec), retention, (m) => ctx.log(m));
    const live = await observe(ctx, workspaceId, created.id);
    return live ?? { id: created.id, spec: { workspaceId, name: created.name }, outputs: { id: created.id, name: created.name, workspaceId } };
  },

  async update(ctx, _name, spec, current, changed) {
    const workspaceId = workspaceOf(spec);
    const tables = Array.isArray(spec.tables) ? spec.tables : [];
    for (const i of tablesToPut(changed)) {
      const table = tables[i];
      if (isObject(table)) await ctx.providers.analytics.putTable(workspaceId, current.id, tableBodyOf(table));
    }
    return (await observe(ctx, workspaceId, current.id)) ?? current;
  },

  async delete(ctx, id, lastSpec) {
    const { workspaceId, id: datasetId } = splitRecorded(id, lastSpec);
    await ctx.providers.analytics.deleteDataset(workspaceId, datasetId);
  },

  // Dataset names are not unique in a workspace: a create with no record in state (state lost) would make a second one.
  async namesakes(ctx, name, spec) {
    const workspaceId = workspaceOf(spec);
    const named = datasetName(name, spec);
    const ids = [...(await idsNamed(ctx.providers.analytics, workspaceId, named))];
    return ids.length === 0
      ? undefined
      : { what: `workspace ${workspaceId} already has ${ids.length === 1 ? 'a dataset' : `${ids.length} datasets`} named '${named}'`, ids };
  },

  // Workspace ids are GUIDs (any case); dataset names are compared as written.
  identityMismatches(target, observed) {
    const found = { workspace: shownValue(observed.spec.workspaceId), name: shownValue(observed.spec.name) };
    const wanted = { workspace: workspaceOf(target.spec), name: datasetName(target.name, target.spec) };
    const out: string[] = [];
    if (found.workspace.toLowerCase() !== wanted.workspace.toLowerCase())
      out.push(`its workspace is ${found.workspace}, the manifest's is ${wanted.workspace}`);
    if (found.name !== wanted.name) out.push(`its name is ${found.name}, the manifest's is ${wanted.name}`);
    return out;
  },
};
