// moor state mv and state migrate: edits of state that keep every record whole (ids, outputs,
// a job's run history), so the next plan sees the same resources and no job runs again.
import { UserError } from '../core/diagnostics.js';
import { jsonText } from '../core/foreign-text.js';
import type { ResourceRecord, StateBackend, StateDocument } from '../engine/state/types.js';
import { movedRecords } from '../engine/state/move-record.js';
import type { IoHost } from './io-host.js';

const ADDRESS = /^([A-Za-z]+)\/(.+)$/;

/** The document with `from` renamed to `to` (same kind); dependsOn entries follow the rename. */
export function movedState(doc: StateDocument, from: string, to: string, location: string): Omit<StateDocument, 'serial'> {
  const source = doc.resources[from] as ResourceRecord | undefined;
  if (!source) throw new UserError(`${from} is not in state (${location}); 'moor state list' shows what it holds`);
  const target = ADDRESS.exec(to);
  if (!target) throw new UserError(`${to} is not an address (Kind/name)`);
  if (target[1] !== source.kind) throw new UserError(`${from} is of kind ${source.kind}: it can only move to ${source.kind}/NAME, not ${to}`);
  if (Object.hasOwn(doc.resources, to)) throw new UserError(`${to} is already in state (${location}); 'moor state rm ${to}' first if it should go`);
  return { version: 1, resources: movedRecords(doc.resources, from, to), ...(doc.extras ? { extras: doc.extras } : {}) };
}

export async function moveAddress(io: IoHost, backend: StateBackend, from: string, to: string): Promise<number> {
  const lock = await backend.lock('state mv');
  try {
    const doc = await backend.read();
    await backend.write(movedState(doc, from, to, backend.location));
    io.stdout.write(`Moved ${from} to ${to} in state. Rename the manifest (metadata.name) to match, or the next plan recreates it.\n`);
    return 0;
  } finally {
    await backend.unlock(lock);
  }
}

/**
 * Copies every record (and the extras: notification threads; and the history of applies) from `source` into `target`,
 * which must hold no resources; both are locked meanwhile. The source is left as it was.
 */
export async function migrateState(io: IoHost, source: StateBackend, target: StateBackend): Promise<number> {
  const sourceLock = await source.lock('state migrate');
  try {
    const targetLock = await target.lock('state migrate');
    try {
      const doc = await source.read();
      const existing = await target.read();
      if (Object.keys(existing.resources).length > 0) {
        throw new UserError(`${target.location} already holds ${Object.keys(existing.resources).length} resource(s): migrate only into empty state`);
      }
      await target.write({ version: 1, resources: doc.resources, ...(doc.extras ? { extras: doc.extras } : {}) });
      const history = (await source.readHistory?.()) ?? [];
      // All of it (as read: the newest within the default limit); the next apply trims it to the config's.
      if (history.length > 0)
        await target.appendHistory?.(history, { keep: history.length + ((await target.readHistory?.())?.length ?? 0), maxBytes: Number.MAX_SAFE_INTEGER });
      const count = Object.keys(doc.resources).length;
      io.stdout.write(
        `Migrated ${count} ${count === 1 ? 'record' : 'records'} from ${source.location} to ${target.location}. ` +
          `Use --state ${target.location} (or state: in moor.config.yaml) from now on; ${source.location} is left as it was.\n`,
      );
      return 0;
    } finally {
      await target.unlock(targetLock);
    }
  } finally {
    await source.unlock(sourceLock);
  }
}

/** `state list --output json`: one object per address. */
export function stateListJson(doc: StateDocument): string {
  const rows = Object.keys(doc.resources)
    .sort()
    .map((address) => {
      const r = doc.resources[address];
      return { address, kind: r.kind, name: r.name, id: r.id ?? null, updatedAt: r.updatedAt, protect: r.protect === true, runs: r.runs?.length ?? 0 };
    });
  return jsonText(rows, 2) + '\n';
}
