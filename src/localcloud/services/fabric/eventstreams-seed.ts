// Demo data of the local Fabric service: one workspace with 120 eventstreams in a folder tree.
import { createHash } from 'node:crypto';

export const DEMO_WORKSPACE_ID = '5d9e2b1c-7a4f-4e3b-9c2d-1f0a8b7c6d5e';
export const DEMO_EVENTSTREAM_COUNT = 120;

export interface FolderRecord {
  id: string;
  displayName: string;
  workspaceId: string;
  parentFolderId?: string;
}

/** Stored exactly as the API returns an Eventstream item. */
export interface EventstreamRecord {
  id: string;
  type: 'Eventstream';
  displayName: string;
  description: string;
  workspaceId: string;
  folderId?: string;
  tags?: { id: string; displayName: string }[];
  sensitivityLabel?: { id: string };
  defaultIdentity?: Record<string, unknown>;
}

export interface WorkspaceRecord {
  id: string;
  displayName: string;
  folders: FolderRecord[];
  items: EventstreamRecord[];
  /** Times (ms) of recent requests, for the per-workspace rate limit. */
  requests: number[];
}

/** A stable UUID (version-5 layout) derived from a name, so demo ids never change. */
export function demoUuid(name: string): string {
  const hex = createHash('sha1').update(`moor-local-cloud:${name}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const TOPICS = ['orders', 'payments', 'clicks', 'inventory', 'shipments', 'telemetry', 'alerts', 'audit', 'sessions', 'returns'];
const TAGS = ['production', 'pii', 'finance'].map((name) => ({ id: demoUuid(`tag:${name}`), displayName: name }));
const LABELS = [{ id: demoUuid('label:confidential') }, { id: demoUuid('label:general') }];

function servicePrincipal(): Record<string, unknown> {
  return {
    id: demoUuid('principal:ingest-app'),
    displayName: 'ingest-app',
    type: 'ServicePrincipal',
    servicePrincipalDetails: { aadAppId: demoUuid('app:ingest-app') },
  };
}

/** One principal of each type, so clients meet every shape of the discriminated union. */
const PRINCIPALS: readonly Record<string, unknown>[] = [
  { id: demoUuid('principal:avery'), displayName: 'Avery Quinn', type: 'User', userDetails: { userPrincipalName: 'avery.quinn@contoso.example' } },
  servicePrincipal(),
  { id: demoUuid('principal:data-engineers'), displayName: 'Data Engineers', type: 'Group', groupDetails: { groupType: 'SecurityGroup' } },
  {
    id: demoUuid('principal:tenant-profile'),
    displayName: 'tenant-a profile',
    type: 'ServicePrincipalProfile',
    servicePrincipalProfileDetails: { parentPrincipal: servicePrincipal() },
  },
  { id: demoUuid('principal:everyone'), displayName: 'Everyone', type: 'EntireTenant' },
];

function demoFolders(): FolderRecord[] {
  const ingestion = { id: demoUuid('folder:ingestion'), displayName: 'ingestion', workspaceId: DEMO_WORKSPACE_ID };
  const analytics = { id: demoUuid('folder:analytics'), displayName: 'analytics', workspaceId: DEMO_WORKSPACE_ID };
  const archive = { id: demoUuid('folder:archive'), displayName: 'archive', workspaceId: DEMO_WORKSPACE_ID, parentFolderId: analytics.id };
  return [ingestion, analytics, archive];
}

function demoItem(i: number, folders: readonly FolderRecord[]): EventstreamRecord {
  const topic = TOPICS[i % TOPICS.length];
  const displayName = i === 0 ? 'orders-stream' : `${topic}-stream-${String(i).padStart(3, '0')}`;
  const item: EventstreamRecord = {
    id: demoUuid(`eventstream:${i}`),
    type: 'Eventstream',
    displayName,
    description: `Demo eventstream of ${topic} events`,
    workspaceId: DEMO_WORKSPACE_ID,
  };
  const folder = i % 4 === 0 ? undefined : folders[(i % 4) - 1]; // a quarter in the root, incl. orders-stream
  if (folder) item.folderId = folder.id;
  if (i % 3 !== 2) item.tags = TAGS.slice(0, (i % 3) + 1);
  if (i % 5 < 2) item.sensitivityLabel = LABELS[i % 5];
  item.defaultIdentity = PRINCIPALS[i % PRINCIPALS.length];
  return item;
}

export function demoWorkspace(): WorkspaceRecord {
  const folders = demoFolders();
  const items = Array.from({ length: DEMO_EVENTSTREAM_COUNT }, (_, i) => demoItem(i, folders));
  return { id: DEMO_WORKSPACE_ID, displayName: 'moor-demo', folders, items, requests: [] };
}

export function seedEventstreams(data: Record<string, unknown>): void {
  data.workspaces = { [DEMO_WORKSPACE_ID]: demoWorkspace() };
}
