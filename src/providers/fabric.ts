// The Fabric client: eventstreams of a workspace, every page.
import { expectItems, expectSame } from './answer-shape.js';
import { listByContinuation } from './paging.js';
import type { RequestSender } from './transport.js';

/** An eventstream item as listed. */
export interface Eventstream {
  readonly id: string;
  readonly displayName: string;
  readonly description?: string;
  readonly type?: string;
  readonly workspaceId?: string;
  readonly folderId?: string;
  readonly [field: string]: unknown;
}

export interface EventstreamQuery {
  /** Include nested folders (the service's default is true). */
  readonly recursive?: boolean;
  readonly rootFolderId?: string;
}

export class FabricClient {
  constructor(private readonly t: RequestSender) {}

  /** Every eventstream of the workspace; 429 waits as Retry-After says (the transport's retries). */
  listEventstreams(workspaceId: string, q: EventstreamQuery = {}): Promise<Eventstream[]> {
    return listByContinuation<Eventstream>(
      this.t,
      {
        method: 'GET',
        path: `/v1/workspaces/${encodeURIComponent(workspaceId)}/eventstreams`,
        label: 'eventstreams',
        query: { recursive: q.recursive, rootFolderId: q.rootFolderId },
      },
      'value',
      (item, page, i) => {
        const [stream] = expectItems(page, [item], `eventstream #${i + 1}`, ['id', 'displayName']);
        // An item of another workspace would make a check pass on the wrong data.
        if (typeof stream.workspaceId === 'string') expectSame(page, `eventstream #${i + 1} workspaceId`, stream.workspaceId, workspaceId, true);
      },
    );
  }
}
