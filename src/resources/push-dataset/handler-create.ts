// Creating a push dataset without ever making a duplicate: a lost answer is resolved by listing, not by resending.
import { isLostAnswer } from '../../providers/service-error.js';
import type { AnalyticsClient, CreateDatasetRequest, DatasetBody } from '../../providers/analytics.js';

/** The ids of the workspace's datasets with this name. */
export async function idsNamed(analytics: AnalyticsClient, workspaceId: string, name: string): Promise<Set<string>> {
  const all = await analytics.listDatasets(workspaceId);
  return new Set(all.filter((d) => d.name === name).map((d) => d.id));
}

/**
 * Sends of one create, at most. A send is repeated only after the listing showed that the lost
 * one created nothing; the cap keeps the exposure to a listing that lags behind the service small.
 */
const MAX_SENDS = 3;

/**
 * POSTs the dataset. When the answer is lost (connection failure, 5xx, outcome unknown), lists
 * the workspace's datasets by name and adopts the one that appeared since before the POST;
 * only when none appeared is the POST sent again (at most MAX_SENDS in all). The last lost
 * answer is checked the same way and then reported.
 */
export async function createOnce(
  analytics: AnalyticsClient,
  workspaceId: string,
  request: CreateDatasetRequest,
  retention: string | undefined,
  log: (message: string) => void,
): Promise<{ readonly id: string; readonly name: string }> {
  const before = await idsNamed(analytics, workspaceId, request.name);
  for (let attempt = 1; ; attempt++) {
    try {
      const created: DatasetBody = await analytics.createDataset(workspaceId, request, retention);
      return { id: created.id, name: created.name }; // the client checks it is the name sent
    } catch (err) {
      if (!isLostAnswer(err)) throw err;
      const appeared = [...(await idsNamed(analytics, workspaceId, request.name))].filter((id) => !before.has(id));
      if (appeared.length > 0) {
        log(`the answer to creating dataset '${request.name}' was lost; adopting dataset ${appeared[0]}, which it created`);
        return { id: appeared[0], name: request.name };
      }
      if (attempt >= MAX_SENDS) throw err;
      log(`the answer to creating dataset '${request.name}' was lost and no such dataset exists; sending it once more`);
    }
  }
}

/** Allowed difference between moor's clock (the pending mark) and the service's createdDate. */
const CLOCK_SKEW_MS = 2 * 60_000;

/**
 * The dataset a create sent at `since` made, when its answer was never recorded (a crash): the
 * first dataset of that name the service created from then on (with some clock skew allowed).
 * Undefined when there is none, or when the service does not say when its datasets were created.
 */
export async function findCreatedSince(analytics: AnalyticsClient, workspaceId: string, name: string, since: string): Promise<string | undefined> {
  const from = Date.parse(since) - CLOCK_SKEW_MS;
  if (Number.isNaN(from)) return undefined;
  const created = (await analytics.listDatasets(workspaceId))
    .filter((d) => d.name === name && typeof d.createdDate === 'string' && Date.parse(d.createdDate) >= from)
    .sort((a, b) => Date.parse(String(a.createdDate)) - Date.parse(String(b.createdDate)));
  return created[0]?.id;
}
