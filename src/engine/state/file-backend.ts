// The default state backend: one JSON file written atomically, a journal of apply's changes, a backup, a lock file.
import type { EventSink } from '../../core/events.js';
import { existsSync } from 'node:fs';
import { access, open, readFile, unlink } from 'node:fs/promises';
import { UserError } from '../../core/diagnostics.js';
import { fileErrorMessage } from '../file-errors.js';
import { code, sizeOf, sweepTempFiles, writeFileAtomic } from './atomic-write.js';
import { takeFileWatchLease } from './file-watch-lease.js';
import { acquireFileLock, breakFileLock, checkFileLock, isStale, readLock, releaseFileLock } from './file-lock.js';
import { JournalWriter, readJournal, replay } from './journal.js';
import { AppendedChanges } from './appended-changes.js';
import { HistoryFile } from './history-file.js';
import type { JsonObject } from '../../core/json.js';
import { compactChunks, emptyState, parseState } from './state-document.js';
import type { HistoryLimit, LockInfo, StateBackend, UnreadableLock, StateChange, StateDocument, StateLease, WholeDocument, WriteOptions } from './types.js';

export const DEFAULT_STATE_FILE = '.moor/state.json';

/** The journal is folded into the state file once it outgrows both of these. */
const FOLD_MIN_BYTES = 8 * 1024 * 1024;
const FOLD_FACTOR = 2;
/**
 * A state file up to this size is rewritten whole (pretty-printed, for people) when the lock is
 * released. A larger one keeps its journal across runs until the journal outgrows this share of
 * it, so recording one change costs the change, not a rewrite of every record.
 */
const FOLD_AT_UNLOCK_BELOW_BYTES = FOLD_MIN_BYTES;
const UNLOCK_FOLD_SHARE = 1 / 4;

/**
 * State in `state.json`. Whole-document writes replace it atomically (keeping the previous
 * version as `state.json.backup`); apply's frequent small changes are appended to
 * `state.json.journal` instead and folded into the file when the lock is released (a large
 * state file only once the journal has grown to a share of it), before the next run appends
 * when the journal may end in a torn line, and when the journal grows large. Reads see the
 * file plus the journal.
 */
export class FileStateBackend implements StateBackend {
  readonly location: string;
  private held: LockInfo | undefined;
  /** Serial as of our last read or write; trusted only while we hold the lock. */
  private knownSerial: number | undefined;
  private journalBytes = 0;
  private lastFullBytes = 0;
  /** Set when an append failed: the journal may end in a torn line, so fold it before appending again. */
  private journalSuspect = true;
  private journal: JournalWriter;
  private readonly history: HistoryFile;
  /**
   * The document of our last read or write, and the changes appended since: together what the file
   * and the journal hold (trusted only while we hold the lock and the journal is sound). The fold
   * at unlock writes them instead of reading back and parsing the file and a journal; the changes
   * are kept apart so recording one costs the change, not a copy of every record.
   */
  private known: { readonly doc: StateDocument; readonly appended: AppendedChanges } | undefined;

  /**
   * @param path absolute (or cwd-relative) path of the state file
   * @param location how messages name it (default: path)
   */
  /** `events`: where a run's lock events go (a stale lock taken over). */
  constructor(
    readonly path: string,
    location?: string,
    private readonly events?: EventSink,
  ) {
    this.location = location ?? path;
    this.journal = new JournalWriter(`${path}.journal`, `${this.location}.journal`);
    this.history = new HistoryFile(`${path}.history`);
  }

  get lockPath(): string {
    return `${this.path}.lock`;
  }

  /** moor watch runs alone on a state file: a second watch is refused, naming the first. */
  readonly replicas = false;

  takeLease(operation: string): Promise<StateLease> {
    return takeFileWatchLease(this.path, this.location, operation);
  }
  get backupPath(): string {
    return `${this.path}.backup`;
  }
  get journalPath(): string {
    return `${this.path}.journal`;
  }

  async read(): Promise<StateDocument> {
    let doc: StateDocument;
    try {
      doc = parseState(await readStateText(this.path, this.location), this.location, () => existsSync(this.backupPath));
    } catch (err) {
      if (code(err) !== 'ENOENT') throw err;
      doc = emptyState();
    }
    return this.remember(replay(doc, await readJournal(this.journalPath, this.location, () => this.anotherRunWrites())));
  }

  /**
   * Whether a live run other than this backend's holds the lock (a look without it, as `moor state list`
   * during an apply): what that run's journal ends in is a line it is writing, not one a crash cut short.
   */
  private async anotherRunWrites(): Promise<boolean> {
    if (this.held) return false;
    const holder = await readLock(this.lockPath);
    return typeof holder === 'object' && !isStale(holder);
  }

  async write(next: Omit<StateDocument, 'serial'>, options: WriteOptions = {}): Promise<StateDocument> {
    await this.assertLockHeld();
    const doc: StateDocument = {
      version: 1,
      serial: (await this.currentSerial()) + 1,
      resources: next.resources,
      ...(next.extras ? { extras: next.extras } : {}),
    };
    await this.writeFull(doc, options.compact === true);
    return this.remember(doc);
  }

  async appendChanges(changes: readonly StateChange[], whole?: () => WholeDocument): Promise<number> {
    await this.assertLockHeld();
    if (this.journalSuspect) await this.fold(true);
    const serial = (await this.currentSerial()) + 1;
    let bytes: number;
    try {
      bytes = await this.journal.append({ serial, changes });
    } catch (err) {
      await this.journal.close().catch(() => undefined);
      this.journalSuspect = true;
      this.knownSerial = undefined;
      this.known = undefined;
      throw err;
    }
    this.knownSerial = serial;
    for (const c of changes) this.known?.appended.add(c);
    this.journalBytes += bytes;
    if (this.journalBytes > Math.max(FOLD_MIN_BYTES, FOLD_FACTOR * this.lastFullBytes)) {
      // The caller's document spares reading back the file and a journal twice its size.
      if (whole) await this.writeFull({ version: 1, serial, ...whole() }, true);
      else await this.fold(true);
    }
    return serial;
  }

  readHistory(limit?: HistoryLimit): Promise<JsonObject[]> {
    return this.history.read(limit);
  }

  async appendHistory(runs: readonly JsonObject[], limit: HistoryLimit): Promise<void> {
    await this.assertLockHeld();
    await this.history.append(runs, limit);
  }

  async lock(operation: string, waitMs = 0): Promise<LockInfo> {
    const info = await acquireFileLock(this.lockPath, operation, waitMs, this.events);
    this.held = info;
    this.knownSerial = undefined;
    this.known = undefined;
    await sweepTempFiles(this.path);
    await this.measureFiles();
    return info;
  }

  /** A run whose lock file was removed or taken over writes nothing more: not to services, not to state. */
  async assertLockHeld(): Promise<void> {
    if (this.held) await checkFileLock(this.lockPath, this.held, this.location);
  }

  async unlock(lock: LockInfo): Promise<void> {
    try {
      // Leave a complete, readable state file behind for the next run and for people (not when the lock was lost).
      if (this.held?.id === lock.id && (await readLock(this.lockPath).then((h) => typeof h === 'object' && h.id === lock.id)) && this.foldsAtUnlock()) {
        await this.fold(this.lastFullBytes >= FOLD_AT_UNLOCK_BELOW_BYTES);
      }
    } finally {
      await releaseFileLock(this.lockPath, lock);
      if (this.held?.id === lock.id) this.held = undefined;
    }
  }

  forceUnlock(force: boolean): Promise<LockInfo | UnreadableLock | undefined> {
    return breakFileLock(this.lockPath, force);
  }

  async close(): Promise<void> {
    // A held lock is the caller's to release; appended changes are durable already.
    await this.journal.close();
  }

  /** Small state files are left whole for people; a large one only once its journal is a share of it. */
  private foldsAtUnlock(): boolean {
    if (this.journalBytes === 0) return false;
    return this.lastFullBytes < FOLD_AT_UNLOCK_BELOW_BYTES || this.journalBytes > this.lastFullBytes * UNLOCK_FOLD_SHARE;
  }

  /**
   * The sizes of the state file and of the journal another run left: they decide when to fold.
   * A journal that does not end with a complete line is suspect and folded before anything is
   * appended after it.
   */
  private async measureFiles(): Promise<void> {
    this.lastFullBytes = await sizeOf(this.path);
    this.journalBytes = await sizeOf(this.journalPath);
    this.journalSuspect = this.journalBytes > 0 && !(await endsWithNewline(this.journalPath, this.journalBytes));
  }

  /**
   * Rewrites the state file with the journal folded in (same serial) and removes the journal: from
   * the document we know while the lock and the journal are sound, else read back from disk.
   */
  private async fold(compact: boolean): Promise<void> {
    if (await exists(this.journalPath)) {
      const known = this.held !== undefined && !this.journalSuspect ? this.known : undefined;
      const trusted = known && replay(known.doc, [{ serial: this.knownSerial ?? known.doc.serial, changes: known.appended.list() }]);
      await this.writeFull(trusted !== undefined && trusted.serial === this.knownSerial ? trusted : await this.read(), compact);
    }
    this.journalSuspect = false;
  }

  private async writeFull(doc: StateDocument, compact: boolean): Promise<void> {
    let bytes = 0;
    const counted = function* (chunks: Iterable<string>) {
      for (const chunk of chunks) {
        bytes += chunk.length;
        yield chunk;
      }
    };
    const text = compact ? counted(compactChunks(doc)) : counted([JSON.stringify(doc, null, 2) + '\n']);
    await writeFileAtomic(this.path, text, { mode: 0o600, backupPath: this.backupPath }).catch((err: unknown) => {
      const problem = fileErrorMessage(err, this.location, 'write');
      throw problem ? new UserError(`state file: ${problem}; the change is not recorded`, [], { cause: err }) : err;
    });
    await this.journal.close();
    // After the rename: a crash in between leaves journal entries the file already holds, which replay skips.
    await unlink(this.journalPath).catch((err: unknown) => {
      if (code(err) !== 'ENOENT') throw err;
    });
    this.journalBytes = 0;
    this.lastFullBytes = bytes;
  }

  /** Without the lock another run may have written since we last looked: read afresh. */
  private async currentSerial(): Promise<number> {
    if (this.held && this.knownSerial !== undefined) return this.knownSerial;
    return (await this.read()).serial;
  }

  private remember(doc: StateDocument): StateDocument {
    this.knownSerial = doc.serial;
    this.known = { doc, appended: new AppendedChanges() };
    return doc;
  }
}

async function endsWithNewline(path: string, size: number): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch (err) {
    if (code(err) === 'ENOENT') return false;
    throw err;
  }
}

/** The state file's text; a directory or an unreadable file is named in one line (a missing one is empty state). */
async function readStateText(path: string, location: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const problem = code(err) === 'ENOENT' ? undefined : fileErrorMessage(err, location);
    if (problem) throw new UserError(`state file: ${problem}`);
    throw err;
  }
}
