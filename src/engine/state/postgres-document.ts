// The state document in PostgreSQL rows: checked on read; a batch of changes folded for one statement.
import { UserError } from '../../core/diagnostics.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { recordProblem } from './record-check.js';
import type { ResourceRecord, StateChange, StateDocument } from './types.js';

/** What the read statement returns for a workspace (pg parses the jsonb columns). */
export interface StateRow {
  readonly serial: string;
  readonly version: number;
  readonly extras: unknown;
  readonly resources: unknown;
}

/** One row of the read statement: the state row (address null) or one record. */
export interface ReadRow {
  readonly address: string | null;
  readonly serial: string | null;
  readonly version: number | null;
  readonly extras: unknown;
  readonly record: unknown;
}

/** The read statement's rows as one StateRow; undefined when the workspace has no state row (nothing written yet). */
export function stateRowOf(rows: readonly ReadRow[]): StateRow | undefined {
  let head: ReadRow | undefined;
  const resources: Record<string, unknown> = {};
  for (const row of rows) {
    if (row.address === null) head = row;
    else resources[row.address] = row.record;
  }
  return head && { serial: String(head.serial), version: head.version as number, extras: head.extras, resources };
}

/** The document of a workspace's rows; a UserError when they do not make a state document. */
export function documentOfRow(row: StateRow, location: string): StateDocument {
  const serial = Number(row.serial);
  // A newer moor wrote it: not corrupt, and nothing to restore (upgrading loses nothing).
  if (Number.isSafeInteger(row.version) && row.version > 1) {
    throw new UserError(`PostgreSQL state ${location} was written by a newer moor (state version ${row.version}; this moor reads version 1): upgrade moor`);
  }
  if (row.version !== 1) throw corrupt(location, `unknown state version ${JSON.stringify(row.version)} (this moor reads version 1)`);
  if (!Number.isSafeInteger(serial) || serial < 0) throw corrupt(location, 'serial is not a non-negative integer');
  if (!isObject(row.resources)) throw corrupt(location, 'the resources are not an object');
  for (const [address, record] of Object.entries(row.resources)) {
    const problem = recordProblem(address, record);
    if (problem) throw corrupt(location, problem);
  }
  if (row.extras !== null && !isObject(row.extras)) throw corrupt(location, '"extras" is not an object');
  // Checked field by field above; record fields moor does not rely on pass through.
  const resources = row.resources as unknown as Record<string, ResourceRecord>;
  return { version: 1, serial, resources, ...(row.extras ? { extras: row.extras } : {}) };
}

/** A batch of changes reduced to what one statement applies: the last word on each address and extras key wins. */
export interface FoldedChanges {
  /** Records to set, as the text of a JSON object ADDRESS -> record. */
  readonly puts: string;
  /** Addresses to remove (none of them is in puts). */
  readonly removes: string[];
  /** Extras keys to set, as the text of a JSON object; undefined when the batch sets none. */
  readonly extras: string | undefined;
}

export function foldChanges(changes: readonly StateChange[]): FoldedChanges {
  const last = new Map<string, ResourceRecord | null>();
  let extras: JsonObject | undefined;
  for (const c of changes) {
    if (c.op === 'put') last.set(c.address, c.record);
    else if (c.op === 'remove') last.set(c.address, null);
    else extras = { ...(extras ?? {}), [c.key]: c.value };
  }
  const puts: Record<string, ResourceRecord> = {};
  const removes: string[] = [];
  for (const [address, record] of last) {
    if (record) puts[address] = record;
    else removes.push(address);
  }
  return { puts: JSON.stringify(puts), removes, extras: extras ? JSON.stringify(extras) : undefined };
}

function corrupt(location: string, why: string): UserError {
  return new UserError(
    `PostgreSQL state ${location} is corrupt: ${why}. moor will not overwrite it. ` +
      `Inspect the workspace's rows in tables moor_state and moor_resource (and restore them from a database backup), ` +
      `or delete them to start from empty state, which forgets every managed resource.`,
  );
}
