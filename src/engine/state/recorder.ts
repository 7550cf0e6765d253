// Records apply's changes to state as they happen, coalescing concurrent changes into few durable writes.
import type { JsonValue } from '../../core/json.js';
import type { ResourceRecord, StateBackend, StateChange, StateDocument } from './types.js';

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Keeps the state document of a running apply in memory and on disk. Each put/remove/putExtras
 * resolves once a write that contains it is durable, so a crash loses nothing already reported
 * as done. Changes made while a write is in flight wait and go out together in the next write
 * (group commit). A backend with `appendChanges` (the file backend's journal) receives only the
 * changes; others receive the whole document.
 */
export class StateRecorder {
  private readonly resources: Map<string, ResourceRecord>;
  private extras: Record<string, JsonValue> | undefined;
  private serial: number;
  private snapshot: StateDocument | undefined;
  /** Changes not yet in a successful write, oldest first. */
  private unwritten: StateChange[] = [];
  private waiting: Waiter[] = [];
  private inFlight: Promise<void> | undefined;
  private scheduled = false;

  constructor(
    private readonly backend: StateBackend,
    initial: StateDocument,
  ) {
    this.resources = new Map(Object.entries(initial.resources));
    this.extras = initial.extras ? { ...initial.extras } : undefined;
    this.serial = initial.serial;
  }

  /** The document as recorded so far (including changes not yet durable); serial of the last durable write. */
  current(): StateDocument {
    this.snapshot ??= {
      version: 1,
      serial: this.serial,
      resources: Object.fromEntries(this.resources),
      ...(this.extras ? { extras: { ...this.extras } } : {}),
    };
    return this.snapshot;
  }

  /** One address's record as recorded so far (cheaper than current() on a hot path). */
  record(address: string): ResourceRecord | undefined {
    return this.resources.get(address);
  }

  put(address: string, record: ResourceRecord): Promise<void> {
    this.resources.set(address, record);
    return this.commit({ op: 'put', address, record });
  }

  remove(address: string): Promise<void> {
    this.resources.delete(address);
    return this.commit({ op: 'remove', address });
  }

  putExtras(key: string, value: JsonValue): Promise<void> {
    this.extras = { ...(this.extras ?? {}), [key]: value };
    return this.commit({ op: 'extras', key, value });
  }

  /** Resolves once every change made so far is durable (retrying what a failed write left behind). */
  async flush(): Promise<void> {
    while (this.unwritten.length > 0 || this.inFlight) {
      if (this.unwritten.length > 0) await this.waitForWrite();
      else await this.inFlight;
    }
  }

  private commit(change: StateChange): Promise<void> {
    this.snapshot = undefined;
    this.unwritten.push(change);
    return this.waitForWrite();
  }

  /** A promise settled by the first write that starts after now. */
  private waitForWrite(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.schedule();
    return done;
  }

  private schedule(): void {
    if (this.inFlight || this.scheduled) return;
    this.scheduled = true;
    // Let the changes made in the same turn of the event loop join this write.
    queueMicrotask(() => {
      this.scheduled = false;
      this.inFlight = this.writeBatch().finally(() => {
        this.inFlight = undefined;
        if (this.waiting.length > 0) this.schedule();
      });
    });
  }

  private async writeBatch(): Promise<void> {
    const batch = this.waiting;
    const changes = this.unwritten;
    this.waiting = [];
    this.unwritten = [];
    try {
      this.serial = await this.persist(changes);
      this.snapshot = undefined;
      for (const w of batch) w.resolve();
    } catch (err) {
      // Not durable: keep the changes, ahead of newer ones, for the next write.
      this.unwritten = [...changes, ...this.unwritten];
      for (const w of batch) w.reject(err);
    }
  }

  private async persist(changes: readonly StateChange[]): Promise<number> {
    // Records are replaced on change, never modified, so the backend may take them as they are.
    if (this.backend.appendChanges)
      return this.backend.appendChanges(changes, () => ({ resources: Object.fromEntries(this.resources), ...(this.extras ? { extras: this.extras } : {}) }));
    // Copies, so changes made while this write is in flight cannot tear what it serialises.
    const next = { version: 1 as const, resources: Object.fromEntries(this.resources), ...(this.extras ? { extras: { ...this.extras } } : {}) };
    return (await this.backend.write(next, { compact: true })).serial;
  }
}
