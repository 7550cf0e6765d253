// Records apply's changes to state as they happen, coalescing concurrent changes into few durable writes.
import type { JsonValue } from '../json.js';
import type { ResourceRecord, StateBackend, StateDocument } from './types.js';

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Keeps the state document of a running apply in memory and on disk. Each put/remove/putExtras
 * resolves once a write that contains it is durable, so a crash loses nothing already reported
 * as done. Changes made while a write is in flight wait and go out together in the next write
 * (group commit): at parallelism N there are at most about as many writes as the slowest
 * resource has steps, not one per change.
 */
export class StateRecorder {
  private resources: Record<string, ResourceRecord>;
  private extras: Record<string, JsonValue> | undefined;
  private serial: number;
  private waiting: Waiter[] = [];
  private inFlight: Promise<void> | undefined;
  private scheduled = false;
  /** Changes made so far, and how many of them the last successful write contained. */
  private changes = 0;
  private durable = 0;

  constructor(private readonly backend: StateBackend, initial: StateDocument) {
    this.resources = { ...initial.resources };
    this.extras = initial.extras ? { ...initial.extras } : undefined;
    this.serial = initial.serial;
  }

  /** The document as recorded so far (including changes not yet durable); serial of the last durable write. */
  current(): StateDocument {
    return { version: 1, serial: this.serial, resources: { ...this.resources }, ...(this.extras ? { extras: { ...this.extras } } : {}) };
  }

  put(address: string, record: ResourceRecord): Promise<void> {
    this.resources[address] = record;
    return this.commit();
  }

  remove(address: string): Promise<void> {
    delete this.resources[address];
    return this.commit();
  }

  putExtras(key: string, value: JsonValue): Promise<void> {
    this.extras = { ...(this.extras ?? {}), [key]: value };
    return this.commit();
  }

  /** Resolves once every change made so far is durable. */
  async flush(): Promise<void> {
    while (this.durable < this.changes || this.inFlight) {
      // A failed earlier write left changes behind: this waits for (and if need be starts) a write carrying them.
      if (this.durable < this.changes) await this.waitForWrite();
      else await this.inFlight;
    }
  }

  private commit(): Promise<void> {
    this.changes++;
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
    this.waiting = [];
    const upTo = this.changes;
    // Copies, so changes made while this write is in flight cannot tear what it serialises.
    const next = { version: 1 as const, resources: { ...this.resources }, ...(this.extras ? { extras: { ...this.extras } } : {}) };
    try {
      const written = await this.backend.write(next, { compact: true });
      this.serial = written.serial;
      this.durable = Math.max(this.durable, upTo);
      for (const w of batch) w.resolve();
    } catch (err) {
      // The changes stay in memory: the next change's write carries them again.
      for (const w of batch) w.reject(err);
    }
  }
}
