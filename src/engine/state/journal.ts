// The state journal: batches of changes appended (and fsynced) beside the state file, folded in later.
import { constants } from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UserError } from '../../core/diagnostics.js';
import { isObject } from '../../core/json.js';
import { code, syncDir } from './atomic-write.js';
import type { ResourceRecord, StateChange, StateDocument } from './types.js';

/** One appended batch: the serial it brings the document to, and its changes in order. */
export interface JournalEntry {
  readonly serial: number;
  readonly changes: readonly StateChange[];
}

/** Appends entries to one journal file, keeping it open between appends (apply appends often). */
export class JournalWriter {
  private handle: FileHandle | undefined;

  constructor(readonly path: string) {}

  /** Appends one entry as one line and makes it durable before resolving; returns the line's length. */
  async append(entry: JournalEntry): Promise<number> {
    let created = false;
    if (!this.handle) {
      this.handle = await open(this.path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
      created = (await this.handle.stat()).size === 0;
    }
    const line = JSON.stringify(entry) + '\n';
    await this.handle.write(line);
    await this.handle.datasync();
    // A new file's directory entry must be durable too, or a crash could lose the whole journal.
    if (created) await syncDir(dirname(this.path));
    return line.length;
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    await h?.close();
  }
}

/**
 * The entries of a journal, oldest first ([] when there is none). A last line without its
 * newline was cut by a crash before it was acknowledged and is ignored; a bad line before
 * the end is corruption.
 */
export async function readJournal(path: string, location: string): Promise<JournalEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (code(err) === 'ENOENT') return [];
    throw err;
  }
  const lines = text.split('\n');
  lines.pop(); // '' after the last newline, or a torn last line
  return lines.map((line, i) => parseEntry(line, i + 1, location));
}

/** The document with the journal's entries newer than its serial applied in order. */
export function replay(doc: StateDocument, entries: readonly JournalEntry[]): StateDocument {
  let resources: Record<string, ResourceRecord> | undefined;
  let extras = doc.extras;
  let serial = doc.serial;
  for (const entry of entries) {
    if (entry.serial <= serial) continue; // already folded into the document
    resources ??= { ...doc.resources };
    for (const c of entry.changes) {
      if (c.op === 'put') resources[c.address] = c.record;
      else if (c.op === 'remove') delete resources[c.address];
      else extras = { ...(extras ?? {}), [c.key]: c.value };
    }
    serial = entry.serial;
  }
  if (!resources) return doc;
  return { version: 1, serial, resources, ...(extras ? { extras } : {}) };
}

function parseEntry(line: string, lineNo: number, location: string): JournalEntry {
  try {
    const v: unknown = JSON.parse(line);
    if (isObject(v) && typeof v.serial === 'number' && Array.isArray(v.changes)) {
      // Written by appendJournal from typed StateChanges; only the envelope needs checking.
      return v as unknown as JournalEntry;
    }
  } catch {
    // reported below
  }
  throw new UserError(
    `state journal ${location}.journal is corrupt at line ${lineNo}. moor will not overwrite it. ` +
      `Move it away to fall back to ${location} as last written in full (the changes in the journal are then forgotten).`,
  );
}
