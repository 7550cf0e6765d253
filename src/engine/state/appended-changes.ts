// The changes a file backend appended to its journal since it last read or wrote the file whole,
// kept for the fold at unlock. A put that follows a put of the same address (apply records its
// intent, then its result) takes the earlier one's place: replaying the list gives the same
// document, records in the same order, and an apply of 100,000 creates keeps 100,000 records
// until it unlocks, not 200,000.
import type { StateChange } from './types.js';

export class AppendedChanges {
  private readonly changes: StateChange[] = [];
  /** Where the last put of an address sits, while no remove of it came after. */
  private readonly lastPut = new Map<string, number>();

  add(change: StateChange): void {
    if (change.op === 'put') {
      const at = this.lastPut.get(change.address);
      if (at !== undefined) {
        this.changes[at] = change;
        return;
      }
      this.lastPut.set(change.address, this.changes.length);
    } else if (change.op === 'remove') {
      this.lastPut.delete(change.address);
    }
    this.changes.push(change);
  }

  /** The changes to replay, oldest first. */
  list(): readonly StateChange[] {
    return this.changes;
  }
}
