// Which live resources the other stacks' states record, for the ownership check of every plan
// (plan/owned-elsewhere.ts). A watch of hundreds of stacks plans each of them every interval: reading
// every other stack's state for each plan (a connection each on PostgreSQL) cost stacks² reads per
// interval. Here the workspaces of one PostgreSQL database are looked at in one statement on one
// connection (the run's own when its state is in that database: a watch opens none per cycle), their records
// read again only when their serial moved, and a look younger than FRESH_MS serves the plans that ask
// meanwhile (a single run makes one fresh look). A state file is read as it is.
import { BoundedMap } from '../../core/bounded-map.js';
import { openStateBackend } from './open-backend.js';
import { PostgresStateBackend } from './postgres-backend.js';
import { parsePostgresUrl } from './postgres-url.js';
import { foreignStateMessage, guardStack } from './stack-state.js';
import type { StateBackend, WorkspaceIds } from './types.js';

/** Another stack and where its state is (what --state would name; undefined: the default file). */
export interface OtherState {
  readonly stack: string;
  readonly location: string | undefined;
}

/** [service id, address] of each record of a stack's state, or why it could not be read. */
export type RecordedIds = { readonly ids: readonly (readonly [string, string])[] } | { readonly error: string };

/** How long a look at a database's workspaces serves the plans that ask after it. */
const FRESH_MS = 1000;
/** How long the workspaces a look covered are looked at again with the next (a watch's plans ask every interval). */
const RECENT_MS = 10 * FRESH_MS;
/** Bound of the remembered workspaces (a config names them; this only guards against a runaway). */
const MAX_REMEMBERED = 100_000;

/** Database + workspace -> what its state recorded at the last look. */
const remembered = new Map<string, WorkspaceIds>();
/** Database -> its last look (in flight or done): when, which workspaces. */
const looks = new Map<string, { readonly at: number; readonly workspaces: ReadonlySet<string>; readonly done: Promise<void> }>();

/** `via`: the run's own backend, asked first for the workspaces of its database (through the connection it holds). */
export async function recordedIds(states: readonly OtherState[], cwd: string, via?: StateBackend): Promise<Map<string, RecordedIds>> {
  const out = new Map<string, RecordedIds>();
  const byDatabase = new Map<string, { stack: string; location: string; workspace: string }[]>();
  const files: OtherState[] = [];
  for (const state of states) {
    if (state.location === undefined || !/^postgres(ql)?:\/\//i.test(state.location.trim())) {
      files.push(state);
      continue;
    }
    try {
      const target = parsePostgresUrl(state.location);
      byDatabase.set(target.connectionString, [
        ...(byDatabase.get(target.connectionString) ?? []),
        { ...state, location: state.location, workspace: target.workspace },
      ]);
    } catch (err) {
      out.set(state.stack, { error: messageOf(err) });
    }
  }
  await Promise.all([
    ...[...byDatabase].map(async ([database, group]) => {
      try {
        await look(
          database,
          group.map((g) => g.workspace),
          group[0].location,
          via,
        );
        for (const g of group) out.set(g.stack, idsOf(remembered.get(key(database, g.workspace)), g.stack, parsePostgresUrl(g.location).redacted));
      } catch (err) {
        for (const g of group) out.set(g.stack, { error: messageOf(err) });
      }
    }),
    ...files.map(async ({ stack, location }) => {
      try {
        const backend = guardStack(openStateBackend(location, cwd), stack);
        try {
          const doc = await backend.read();
          out.set(stack, { ids: Object.entries(doc.resources).flatMap(([address, record]) => (record.id ? [[record.id, address] as const] : [])) });
        } finally {
          await backend.close();
        }
      } catch (err) {
        out.set(stack, { error: messageOf(err) });
      }
    }),
  ]);
  return out;
}

/** Brings what `workspaces` of `database` record up to date, unless a look younger than FRESH_MS covered them. */
async function look(database: string, workspaces: readonly string[], anyLocation: string, via: StateBackend | undefined): Promise<void> {
  const last = looks.get(database);
  if (last && Date.now() - last.at < FRESH_MS && workspaces.every((w) => last.workspaces.has(w))) {
    // A look that failed is not shared beyond the plans that waited for it.
    return last.done;
  }
  // Each stack of a watch asks for the others (not itself): a look covers every workspace asked for lately,
  // so that one look serves every stack's plan for FRESH_MS instead of one look per plan.
  const asked = recentlyAsked(database, workspaces);
  const done = (async () => {
    const known = new Map<string, number>();
    for (const w of asked) {
      const seen = remembered.get(key(database, w));
      if (seen) known.set(w, seen.serial);
    }
    const changed = await (via?.recordedIdsIn?.(database, asked, known) ?? lookAlone(anyLocation, asked, known));
    if (remembered.size + changed.size > MAX_REMEMBERED) remembered.clear();
    for (const [w, ids] of changed) remembered.set(key(database, w), ids);
  })();
  const entry = { at: Date.now(), workspaces: new Set(asked), done };
  looks.set(database, entry);
  done.catch(() => {
    if (looks.get(database) === entry) looks.delete(database);
  });
  return done;
}

/** Database -> workspace -> when a plan last asked for it (databases bounded: a process rarely sees more than one). */
const askedAt = new BoundedMap<string, Map<string, number>>(100);

/** `workspaces` (asked for now) and those of `database` asked for within RECENT_MS. */
function recentlyAsked(database: string, workspaces: readonly string[]): string[] {
  const now = Date.now();
  const times = askedAt.getOrMake(database, () => new Map<string, number>());
  for (const w of workspaces) times.set(w, now);
  for (const [w, at] of times) if (now - at >= RECENT_MS) times.delete(w);
  return [...times.keys()];
}

/** A look on a connection of its own, closed after it: the run's state is elsewhere. */
async function lookAlone(location: string, workspaces: readonly string[], known: ReadonlyMap<string, number>): Promise<Map<string, WorkspaceIds>> {
  const backend = new PostgresStateBackend(location);
  try {
    return await backend.recordedIds(workspaces, known);
  } finally {
    await backend.close();
  }
}

function idsOf(seen: WorkspaceIds | undefined, stack: string, location: string): RecordedIds {
  if (!seen) return { ids: [] };
  if (seen.version > 1)
    return { error: `PostgreSQL state ${location} was written by a newer moor (state version ${seen.version}; this moor reads version 1): upgrade moor` };
  if (seen.stack !== undefined && seen.stack !== stack) return { error: foreignStateMessage(location, seen.stack, stack) };
  return { ids: seen.ids };
}

function key(database: string, workspace: string): string {
  return `${database}\u0000${workspace}`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
