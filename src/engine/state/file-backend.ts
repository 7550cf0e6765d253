// The default state backend: one JSON file written atomically, a backup of the previous version, a lock file beside it.
import { readFile } from 'node:fs/promises';
import { code, writeFileAtomic } from './atomic-write.js';
import { acquireFileLock, breakFileLock, releaseFileLock } from './file-lock.js';
import { emptyState, parseState } from './state-document.js';
import type { LockInfo, StateBackend, StateDocument, WriteOptions } from './types.js';

export const DEFAULT_STATE_FILE = '.moor/state.json';

export class FileStateBackend implements StateBackend {
  readonly location: string;
  private held: LockInfo | undefined;
  /** Serial on disk as of our last read or write; trusted only while we hold the lock. */
  private knownSerial: number | undefined;

  /**
   * @param path absolute (or cwd-relative) path of the state file
   * @param location how messages name it (default: path)
   */
  constructor(readonly path: string, location?: string) {
    this.location = location ?? path;
  }

  get lockPath(): string { return `${this.path}.lock`; }
  get backupPath(): string { return `${this.path}.backup`; }

  async read(): Promise<StateDocument> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if (code(err) === 'ENOENT') return this.remember(emptyState());
      throw err;
    }
    return this.remember(parseState(text, this.location));
  }

  async write(next: Omit<StateDocument, 'serial'>, options: WriteOptions = {}): Promise<StateDocument> {
    // Without the lock another run may have written since we last looked: read the serial afresh.
    const previous = this.held && this.knownSerial !== undefined ? this.knownSerial : (await this.read()).serial;
    const doc: StateDocument = { version: 1, serial: previous + 1, resources: next.resources, ...(next.extras ? { extras: next.extras } : {}) };
    const text = options.compact ? JSON.stringify(doc) : JSON.stringify(doc, null, 2) + '\n';
    await writeFileAtomic(this.path, text, { mode: 0o600, backupPath: this.backupPath });
    return this.remember(doc);
  }

  async lock(operation: string, waitMs = 0): Promise<LockInfo> {
    const info = await acquireFileLock(this.lockPath, operation, waitMs);
    this.held = info;
    this.knownSerial = undefined;
    return info;
  }

  async unlock(lock: LockInfo): Promise<void> {
    await releaseFileLock(this.lockPath, lock);
    if (this.held?.id === lock.id) this.held = undefined;
  }

  forceUnlock(force: boolean): Promise<LockInfo | undefined> {
    return breakFileLock(this.lockPath, force);
  }

  async close(): Promise<void> {
    // Nothing open between calls; a held lock is the caller's to release.
  }

  private remember(doc: StateDocument): StateDocument {
    this.knownSerial = doc.serial;
    return doc;
  }
}
