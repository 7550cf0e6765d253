// The state journal: batches of changes appended (and fsynced) beside the state file, folded in later.
import { constants } from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UserError } from '../../core/diagnostics.js';
import { isObject } from '../../core/json.js';
import { fileErrorWords } from '../file-errors.js';
import { code, syncDir } from './atomic-write.js';
import { recordProblem } from './record-check.js';
import type { ResourceRecord, StateChange, StateDocument } from './types.js';

/** One appended batch: the serial it brings the document to, and its changes in order. */
export interface JournalEntry {
  readonly serial: number;
  readonly changes: readonly StateChange[];
}

/**
 * Appends entries to one journal file, keeping it open between appends (apply appends often).
 * An append resolves only once every byte of its line is written and synced: apply sends a
 * request that could duplicate only after its intent is durable, so a short write (a full disk)
 * must fail the append, never pass for one.
 */
export class JournalWriter {
  private handle: FileHandle | undefined;
  /** Bytes of complete lines in the file: where a failed append cuts the file back to. */
  private size = 0;

  /** `location`: how messages name the file. */
  constructor(
    readonly path: string,
    private readonly location: string = path,
  ) {}

  /** Appends one entry as one line and makes it durable before resolving; returns the line's length. */
  async append(entry: JournalEntry): Promise<number> {
    const handle = this.handle ?? (await this.open());
    const created = this.size === 0;
    const line = Buffer.from(JSON.stringify(entry) + '\n', 'utf8');
    try {
      await writeAll(handle, line);
      await handle.datasync();
    } catch (err) {
      await this.cutBack(handle);
      throw new UserError(`cannot write ${this.location}: ${writeProblem(err)}; the change is not recorded`, [], { cause: err });
    }
    this.size += line.length;
    // A new file's directory entry must be durable too, or a crash could lose the whole journal.
    if (created) await syncDir(dirname(this.path));
    return line.length;
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    await h?.close();
  }

  private async open(): Promise<FileHandle> {
    const handle = await open(this.path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
    this.handle = handle;
    this.size = (await handle.stat()).size;
    return handle;
  }

  /**
   * Removes what a failed append left of its line, so the journal ends in complete entries. When
   * even that fails, the torn line stays, and the next read refuses the journal (readJournal).
   */
  private async cutBack(handle: FileHandle): Promise<void> {
    try {
      await handle.truncate(this.size);
      await handle.datasync();
    } catch {
      // Reported by the append's own error; the reader will not take the torn line for a record.
    }
  }
}

/** Writes every byte of `data`, going on after a short write; a write that stores nothing fails. */
async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  for (let offset = 0; offset < data.length;) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    if (bytesWritten <= 0) throw new ShortWrite(offset, data.length);
    offset += bytesWritten;
  }
}

/** A write the file system acknowledged without storing a byte. */
class ShortWrite extends Error {
  constructor(
    readonly stored: number,
    readonly wanted: number,
  ) {
    super(`the file system stored ${stored} of ${wanted} bytes`);
  }
}

function writeProblem(err: unknown): string {
  if (err instanceof ShortWrite) return err.message;
  return fileErrorWords(err) ?? (err instanceof Error ? err.message : String(err));
}

/**
 * The entries of a journal, oldest first ([] when there is none). Every line must be a complete
 * entry: a last line without its newline is a write cut short (a full disk, a crash), and moor
 * will not guess what it held, so it stops with a message instead of dropping it. Unless
 * `beingWritten()` says a live run holds the lock: then the last line is the entry that run is
 * appending, not yet durable (nothing it announces was sent), and the entries before it are the state.
 */
export async function readJournal(
  path: string,
  location: string,
  beingWritten: () => Promise<boolean> = () => Promise.resolve(false),
): Promise<JournalEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (code(err) === 'ENOENT') return [];
    throw err;
  }
  const lines = text.split('\n');
  const torn = lines.pop(); // '' after the last newline
  if (torn && !(await beingWritten())) throw incompleteEntry(location, lines.length + 1, Buffer.byteLength(text) - Buffer.byteLength(torn), torn);
  return lines.map((line, i) => parseEntry(line, i + 1, location));
}

/** The document with the journal's entries newer than its serial applied in order. */
export function replay(doc: StateDocument, entries: readonly JournalEntry[]): StateDocument {
  let resources: Map<string, ResourceRecord> | undefined;
  let extras = doc.extras;
  let serial = doc.serial;
  for (const entry of entries) {
    if (entry.serial <= serial) continue; // already folded into the document
    resources ??= new Map(Object.entries(doc.resources));
    for (const c of entry.changes) {
      if (c.op === 'put') resources.set(c.address, c.record);
      else if (c.op === 'remove') resources.delete(c.address);
      else extras = { ...(extras ?? {}), [c.key]: c.value };
    }
    serial = entry.serial;
  }
  if (!resources) return doc;
  return { version: 1, serial, resources: Object.fromEntries(resources), ...(extras ? { extras } : {}) };
}

function parseEntry(line: string, lineNo: number, location: string): JournalEntry {
  try {
    const v: unknown = JSON.parse(line);
    if (isObject(v) && typeof v.serial === 'number' && Array.isArray(v.changes)) {
      // Records are checked as the state file's are; the other changes are plain.
      const put = v.changes
        .map((c) => (isObject(c) && c.op === 'put' && typeof c.address === 'string' ? recordProblem(c.address, c.record) : undefined))
        .find(Boolean);
      if (put) throw new UserError(`state journal ${location}.journal is corrupt at line ${lineNo}: ${put}. moor will not overwrite it.`);
      return v as unknown as JournalEntry;
    }
  } catch (err) {
    if (err instanceof UserError) throw err;
    // not JSON: reported below
  }
  throw new UserError(
    `state journal ${location}.journal is corrupt at line ${lineNo}. moor will not overwrite it. ` +
      `Move it away to fall back to ${location} as last written in full (the changes in the journal are then forgotten).`,
  );
}

/** The address a torn entry was recording, when its first bytes name one (for the message only). */
function tornAddress(torn: string): string | undefined {
  return /"address":"([A-Za-z]+\/[A-Za-z0-9._-]{1,100})"/.exec(torn)?.[1];
}

function incompleteEntry(location: string, lineNo: number, completeBytes: number, torn: string): UserError {
  const address = tornAddress(torn);
  const what = address ? ` (it was recording ${address})` : '';
  return new UserError(
    `state journal ${location}.journal ends in an incomplete record at line ${lineNo}${what}: a write was cut short, by a full disk or a crash. ` +
      `moor will not guess what it held, nor drop it. moor sends a request only once the record announcing it is complete, ` +
      `so the next plan finds again whatever this line was recording: once there is space again, remove the incomplete line ` +
      `(truncate -s ${completeBytes} ${location}.journal) and run again.`,
  );
}
