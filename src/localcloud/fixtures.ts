// Fixtures: a YAML (or JSON) file declaring a team's own database-movement projects and
// environments, quotas, container group profiles, eventstream workspaces and conversations, added to the local cloud's
// data at every start (over the demo data, which stays), so manifests run without editing ids.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { UserError } from '../core/diagnostics.js';
import { isObject, type JsonObject } from '../core/json.js';
import type { DataStore } from './data-store.js';
import { declaredQuotas, quotaKey } from './services/arm/quotas.js';
import { declaredProfiles, profileKey, type ProfileRecord } from './services/arm/container-group-profiles.js';
import { ARM_ID } from './services/arm/validation-kit.js';
import type { ConversationRecord } from './services/connector/store.js';
import { demoUuid, type WorkspaceRecord } from './services/fabric/eventstreams-seed.js';
import type { ProjectRecord } from './services/lcs/database-movement-store.js';

export interface Fixtures {
  readonly projects: Record<string, ProjectRecord>;
  readonly quotas: { subscriptionId: string; location: string; containerGroups?: number; standardCores?: number }[];
  readonly containerGroupProfiles: ProfileRecord[];
  readonly workspaces: WorkspaceRecord[];
  readonly conversations: ConversationRecord[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOP_KEYS = ['databaseMovement', 'quotas', 'containerGroupProfiles', 'workspaces', 'conversations'];

/** Reads and checks a fixtures file; every problem is a UserError naming the file and the field. */
export function readFixtures(file: string): Fixtures {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    // A folder or an unreadable file is a read failure, not "not valid YAML". (engine/file-errors
    // words these better, but the local cloud may not import the engine.)
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'is not found' : `cannot be read: ${(err as Error).message}`;
    throw new UserError(`fixtures file ${file} ${why}`);
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new UserError(`fixtures file ${file} is not valid YAML: ${(err as Error).message}`);
  }
  const fail = (where: string, rule: string): never => {
    throw new UserError(`fixtures file ${file}: ${where} ${rule}`);
  };
  const root = doc ?? {};
  if (!isObject(root)) return fail('the document', 'must be a mapping');
  for (const key of Object.keys(root)) if (!TOP_KEYS.includes(key)) fail(`'${key}'`, `is not known (expected ${TOP_KEYS.join(', ')})`);
  return {
    projects: projectsOf(root.databaseMovement, fail),
    quotas: listOf(root.quotas, 'quotas', fail).map((q, i) => quotaOf(q, `quotas[${i}]`, fail)),
    containerGroupProfiles: listOf(root.containerGroupProfiles, 'containerGroupProfiles', fail).map((p, i) =>
      profileOf(p, `containerGroupProfiles[${i}]`, fail),
    ),
    workspaces: listOf(root.workspaces, 'workspaces', fail).map((w, i) => workspaceOf(w, `workspaces[${i}]`, fail)),
    conversations: listOf(root.conversations, 'conversations', fail).map((c, i) => conversationOf(c, `conversations[${i}]`, fail)),
  };
}

type Fail = (where: string, rule: string) => never;

function listOf(v: unknown, where: string, fail: Fail): JsonObject[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every(isObject)) return fail(where, 'must be a list of mappings');
  return v;
}

const RULES = new Map<RegExp | undefined, string>([
  [UUID, 'must be a UUID'],
  [ARM_ID, 'must be a resource id /subscriptions/{id}/resourceGroups/{group}/providers/{namespace}/{type}/{name}'],
]);

function text(v: unknown, where: string, fail: Fail, pattern?: RegExp): string {
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s !== 'string' || s.trim() === '' || (pattern && !pattern.test(s))) return fail(where, RULES.get(pattern) ?? 'must be a non-empty string');
  return s;
}

function count(v: unknown, where: string, fail: Fail): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return fail(where, 'must be a whole number, 0 or more');
  return v;
}

function projectsOf(v: unknown, fail: Fail): Record<string, ProjectRecord> {
  if (v === undefined || v === null) return {};
  if (!isObject(v) || Object.keys(v).some((k) => k !== 'projects')) return fail('databaseMovement', 'must be {projects: [...]}');
  const out: Record<string, ProjectRecord> = {};
  listOf(v.projects, 'databaseMovement.projects', fail).forEach((p, i) => {
    const where = `databaseMovement.projects[${i}]`;
    const id = text(p.id, `${where}.id`, fail);
    const environments: ProjectRecord['environments'] = {};
    listOf(p.environments, `${where}.environments`, fail).forEach((e, j) => {
      const at = `${where}.environments[${j}]`;
      const envId = text(e.id, `${at}.id`, fail, UUID).toLowerCase();
      if (e.type !== 'Production' && e.type !== 'Sandbox') fail(`${at}.type`, 'must be Production or Sandbox');
      environments[envId] = { name: typeof e.name === 'string' ? e.name : envId, type: e.type };
    });
    out[id] = { environments };
  });
  return out;
}

function quotaOf(q: JsonObject, where: string, fail: Fail): Fixtures['quotas'][number] {
  return {
    subscriptionId: text(q.subscriptionId, `${where}.subscriptionId`, fail, UUID),
    location: text(q.location, `${where}.location`, fail),
    containerGroups: count(q.containerGroups, `${where}.containerGroups`, fail),
    standardCores: count(q.standardCores, `${where}.standardCores`, fail),
  };
}

/** A profile: `{id, revision?, containers: [{name, image, cpu?, memoryInGB?}]}` (revision defaults to 1, cpu to 1, memory to 1.5 GB). */
function profileOf(p: JsonObject, where: string, fail: Fail): ProfileRecord {
  const id = text(p.id, `${where}.id`, fail, ARM_ID);
  const revision = count(p.revision, `${where}.revision`, fail) ?? 1;
  if (revision < 1) fail(`${where}.revision`, 'must be 1 or more');
  const containers = listOf(p.containers, `${where}.containers`, fail).map((c, j) => {
    const at = `${where}.containers[${j}]`;
    return {
      name: text(c.name, `${at}.name`, fail),
      image: text(c.image, `${at}.image`, fail),
      cpu: amount(c.cpu, `${at}.cpu`, fail) ?? 1,
      memoryInGB: amount(c.memoryInGB, `${at}.memoryInGB`, fail) ?? 1.5,
    };
  });
  if (containers.length === 0) fail(`${where}.containers`, 'must list at least one container');
  return { id, revision, containers };
}

function amount(v: unknown, where: string, fail: Fail): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !(v > 0)) return fail(where, 'must be a number above 0');
  return v;
}

function workspaceOf(w: JsonObject, where: string, fail: Fail): WorkspaceRecord {
  const id = text(w.id, `${where}.id`, fail, UUID).toLowerCase();
  const items = listOf(w.eventstreams, `${where}.eventstreams`, fail).map((e, i) => {
    const displayName = text(e.displayName, `${where}.eventstreams[${i}].displayName`, fail);
    return {
      id: typeof e.id === 'string' && UUID.test(e.id) ? e.id.toLowerCase() : demoUuid(`fixture:${id}:${displayName}`),
      type: 'Eventstream' as const,
      displayName,
      description: typeof e.description === 'string' ? e.description : '',
      workspaceId: id,
    };
  });
  return { id, displayName: typeof w.displayName === 'string' ? w.displayName : id, folders: [], items, requests: [] };
}

function conversationOf(c: JsonObject, where: string, fail: Fail): ConversationRecord {
  const id = text(c.id, `${where}.id`, fail);
  const members = listOf(c.members, `${where}.members`, fail).map((m, i) => ({
    id: text(m.id, `${where}.members[${i}].id`, fail),
    ...(typeof m.name === 'string' ? { name: m.name } : {}),
  }));
  return {
    id,
    isGroup: c.isGroup !== false,
    members,
    activities: [],
    lastActivityNumber: 0,
    ...(typeof c.topicName === 'string' ? { topicName: c.topicName } : {}),
  };
}

/** Adds the fixtures to the stores, replacing records with the same ids (activities already posted stay). */
export function applyFixtures(store: DataStore, f: Fixtures): void {
  const lcs = store.dataFor('lcs');
  lcs.projects = { ...(lcs.projects ?? {}), ...f.projects };
  const arm = store.dataFor('arm');
  const quotas = declaredQuotas(arm);
  for (const q of f.quotas) {
    const limits = Object.fromEntries(
      Object.entries({ containerGroups: q.containerGroups, standardCores: q.standardCores }).filter(([, n]) => n !== undefined),
    );
    quotas[quotaKey(q.subscriptionId, q.location)] = limits;
  }
  const profiles = declaredProfiles(arm);
  for (const p of f.containerGroupProfiles) profiles[profileKey(p.id)] = p;
  const fabric = store.dataFor('fabric');
  const workspaces = (fabric.workspaces ??= {}) as Record<string, WorkspaceRecord>;
  for (const w of f.workspaces) workspaces[w.id] = w;
  const connector = store.dataFor('connector');
  const conversations = (connector.conversations ??= {}) as Record<string, ConversationRecord>;
  for (const c of f.conversations) {
    const kept = conversations[c.id] as ConversationRecord | undefined;
    conversations[c.id] = kept ? { ...c, activities: kept.activities, lastActivityNumber: kept.lastActivityNumber } : c;
  }
  store.save();
}
