// moor discover for push datasets: every dataset of the named workspaces (the list, then each
// one's tables), as the spec a person would write. Names are not unique: two of one name are told
// apart by their ids. What the service never returns (retention, mode, relationships, data
// sources, rows) cannot be written and is said.
import type { Adoption, Discovered, KindContext } from '../../core/kind.js';
import type { DatasetBody } from '../../providers/analytics.js';
import { specOf, outputsOf } from './mapping.js';

/** What a GET answers but a person never writes: the service's own fields. */
const SERVICE_FIELDS = new Set([
  'id',
  'name',
  'webUrl',
  'addRowsAPIEnabled',
  'configuredBy',
  'isRefreshable',
  'isEffectiveIdentityRequired',
  'isEffectiveIdentityRolesRequired',
  'isOnPremGatewayRequired',
  'targetStorageMode',
  'createdDate',
  'createReportEmbedURL',
  'qnaEmbedURL',
  'ContentProviderType',
  'isInPlaceSharingEnabled',
  'queryScaleOutSettings',
  'upstreamDataflows',
  'upstreamDatasets',
  'users',
  '@odata.context',
  // Written when the service answers them (the spec's own fields).
  'defaultRetentionPolicy',
  'defaultMode',
  'relationships',
  'datasources',
]);
const NEVER_RETURNED = ['defaultRetentionPolicy', 'defaultMode', 'relationships', 'datasources'] as const;

type PassedOver = (what: string, reason: string) => void;

async function listWorkspace(
  ctx: KindContext,
  workspaceId: string,
  listed: (count: number, where: string) => void,
  passedOver: PassedOver,
): Promise<Discovered[]> {
  const analytics = ctx.providers.analytics;
  const all = await analytics.listDatasets(workspaceId);
  // A dataset that takes no pushed rows (imported, DirectQuery) is not a push dataset: moor does not manage it.
  const datasets = all.filter((d) => {
    if (d.addRowsAPIEnabled !== false) return true;
    passedOver(`dataset ${d.name} (id ${d.id}) in workspace ${workspaceId}`, 'not a push dataset (it takes no pushed rows): moor manages push datasets only');
    return false;
  });
  const out = await Promise.all(
    datasets.map(async (dataset): Promise<Discovered> => {
      const tables = await analytics.getTables(workspaceId, dataset.id);
      const observed = { id: dataset.id, spec: specOf(workspaceId, dataset, tables), outputs: outputsOf(workspaceId, dataset, tables) };
      return {
        observed,
        name: dataset.name,
        home: `workspace-${workspaceId.toLowerCase()}`,
        distinguishedBy: `id ${dataset.id}`,
        suffix: dataset.id.slice(0, 8).toLowerCase(),
      };
    }),
  );
  listed(out.length, `workspace ${workspaceId}`);
  return out;
}

export const adoption: Adoption = {
  async list(ctx, scope, listed, passedOver) {
    return (await Promise.all(scope.workspaces.map((w) => listWorkspace(ctx, w, listed, passedOver)))).flat();
  },
  toSpec({ observed }) {
    const spec = structuredClone(observed.spec);
    const raw = observed.outputs as DatasetBody;
    const unwritten = [
      ...Object.keys(raw)
        .filter((k) => !SERVICE_FIELDS.has(k) && k !== 'tables' && k !== 'workspaceId')
        .map((k) => ({ path: [k], reason: "moor's schema of a push dataset does not know this field" })),
      ...NEVER_RETURNED.filter((k) => raw[k] === undefined).map((k) => ({
        path: [k],
        reason: 'the service never returns it: left out, so moor neither compares nor changes it',
      })),
    ];
    return { spec, secrets: [], unwritten };
  },
};
